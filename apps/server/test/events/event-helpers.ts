import type { DomainEventType } from '@perch/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { SESSION_COOKIE } from '../../src/app/plugins/auth.plugin';
import type { Member } from '../factories';

/** An outbox row with its payload parsed. */
export interface StoredEvent {
  id: number;
  type: DomainEventType;
  payload: Record<string, unknown>;
  createdAt: number;
}

/** Events in the outbox after `afterId`, in id order. */
export async function outboxAfter(app: FastifyInstance, afterId: number): Promise<StoredEvent[]> {
  const rows = await app.db
    .selectFrom('outbox')
    .selectAll()
    .where('id', '>', afterId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    type: row.type as DomainEventType,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    createdAt: row.created_at,
  }));
}

/** The newest outbox id, 0 when empty. */
export async function lastOutboxId(app: FastifyInstance): Promise<number> {
  const row = await app.db
    .selectFrom('outbox')
    .select((eb) => eb.fn.max<number | null>('id').as('id'))
    .executeTakeFirst();
  return row?.id ?? 0;
}

/** Lets the relay read the outbox and the consumers finish (notifications are written after commit). */
export const drain = (app: FastifyInstance): Promise<void> => app.services.relay.drain();

/**
 * What writes recorded after `afterId`, leaving out notifications.changed (recorded afterwards by
 * the notifications consumer, not by the write). Drains first so that no consumer is mid-way.
 */
export async function writtenAfter(app: FastifyInstance, afterId: number): Promise<StoredEvent[]> {
  await drain(app);
  return (await outboxAfter(app, afterId)).filter((e) => e.type !== 'notifications.changed');
}

/** `type` and payload of events, for comparing with what was expected. */
export const shapes = (events: readonly Pick<StoredEvent, 'type' | 'payload'>[]) =>
  events.map(({ type, payload }) => ({ type, payload }));

export interface Session {
  /** The Cookie request header that carries the session. */
  cookie: string;
  /** The Set-Cookie header the login answered. */
  setCookie: string;
}

/** Signs the member in through the API and answers the session cookie the server set. */
export async function loginSession(app: FastifyInstance, member: Member): Promise<Session> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: member.user.username, password: member.password },
  });
  expect(response.statusCode, response.body).toBe(200);
  const header = response.headers['set-cookie'];
  const all = Array.isArray(header) ? header : header ? [header] : [];
  const setCookie = all.find((value) => value.startsWith(`${SESSION_COOKIE}=`));
  if (!setCookie) throw new Error(`login set no ${SESSION_COOKIE} cookie: ${JSON.stringify(all)}`);
  const pair = setCookie.split(';')[0] ?? '';
  return { cookie: pair, setCookie };
}

/**
 * Waits until the clock has passed the current millisecond, so that what is written next is
 * strictly newer than what was written before (lists order by time first).
 */
export async function nextMillisecond(): Promise<void> {
  const now = Date.now();
  while (Date.now() <= now) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Waits until `condition` holds, checking every 10 ms; fails after `timeoutMs`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 3000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
