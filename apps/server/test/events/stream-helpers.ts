import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import { loginSession, outboxAfter, lastOutboxId, type Session } from './event-helpers';
import { openStream, type SseMessage, type SseStream } from './sse-client';

export interface StreamMember extends Member {
  session: Session;
}

export interface StreamApp extends TestApp {
  /** http://127.0.0.1:<port> */
  base: string;
  /** A new member, signed in through /api/auth/login (so with the session cookie). */
  member: () => Promise<StreamMember>;
  /** GET /api/events with the member's session cookie (if any), these headers and query. */
  connect: (
    member?: StreamMember | null,
    headers?: Record<string, string>,
    query?: string,
  ) => Promise<SseStream>;
  /**
   * Records an event every stream may see (a profile edit by a member of its own) and answers its
   * id: once a stream has it, it has every event before it that it was going to get.
   */
  marker: () => Promise<number>;
}

/** The app on a fresh database, listening on a free port of 127.0.0.1. */
export async function startStreamApp(): Promise<StreamApp> {
  const t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const markers = await createMember(t.app);
  let markerCount = 0;

  return {
    ...t,
    base,
    member: async () => {
      const member = await createMember(t.app);
      return { ...member, session: await loginSession(t.app, member) };
    },
    connect: (member, headers = {}, query) =>
      openStream(`${base}/api/events${query ? `?${query}` : ''}`, {
        ...(member ? { cookie: member.session.cookie } : {}),
        ...headers,
      }),
    marker: async () => {
      const before = await lastOutboxId(t.app);
      markerCount += 1;
      const response = await call(t.app, {
        method: 'POST',
        url: '/api/users/edit',
        token: markers.token,
        payload: { userData: { firstName: 'Marker', lastName: `Number${markerCount}` } },
      });
      expect(response.statusCode, response.body).toBe(200);
      const mine = (await outboxAfter(t.app, before)).filter(
        (e) => e.type === 'profile.edited' && e.payload.userId === markers.user._id,
      );
      const id = mine[mine.length - 1]?.id;
      if (id === undefined) throw new Error('the marker recorded no event');
      return id;
    },
  };
}

/** A message of this type whose data has these values. */
export const isEvent =
  (type: string, match: Record<string, unknown> = {}) =>
  (message: SseMessage): boolean =>
    message.event === type &&
    typeof message.data === 'object' &&
    message.data !== null &&
    Object.entries(match).every(
      ([key, value]) => (message.data as Record<string, unknown>)[key] === value,
    );

/** Asserts the stream opened and that its first message is `ready`; answers that message. */
export async function readyOf(stream: SseStream): Promise<SseMessage> {
  expect(stream.status, stream.text()).toBe(200);
  expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
  const first = await stream.next();
  expect(first.event).toBe('ready');
  expect(stream.messages[0]).toBe(first);
  return first;
}

/** Waits for the marker on each stream: what they were to get before it has arrived. */
export async function settle(app: StreamApp, ...streams: SseStream[]): Promise<number> {
  const id = await app.marker();
  await Promise.all(streams.map((stream) => stream.next((m) => m.id === id)));
  return id;
}

/** The messages a stream received as [event, data], leaving out `ready` and the markers. */
export const received = (stream: SseStream) =>
  stream.messages
    .filter((m) => m.event !== 'ready' && m.event !== 'profile.edited')
    .map((m) => [m.event, m.data] as const);
