import type { DomainEvent, PublishedEvent } from '@perch/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/platform/db/schema';
import type { DurableConsumer } from '../../src/platform/events/consumer';
import { createRelay, type Relay } from '../../src/platform/events/relay';
import { deleteEventsBefore } from '../../src/platform/events/outbox.repository';
import { createTransact } from '../../src/platform/events/transactions';
import { createLocalEventSignal } from '../../src/platform/infra/event-signal';
import { useMigratedTestDatabase } from '../test-database';
import { until } from './event-helpers';

const testDatabase = useMigratedTestDatabase('relay');
let db: Kysely<Database>;
beforeAll(() => {
  db = testDatabase.db;
});

const errors: unknown[] = [];
const log = {
  error: (details: unknown) => errors.push(details),
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
} as unknown as FastifyBaseLogger;

const running: Relay[] = [];
afterEach(async () => {
  for (const relay of running.splice(0)) await relay.stop();
  errors.length = 0;
});

let names = 0;
/** A consumer of bookmark events that keeps what it saw; `fail` decides, per event, to throw. */
function recordingConsumer(fail: (event: PublishedEvent) => boolean = () => false) {
  const seen: number[] = [];
  names += 1;
  const consumer: DurableConsumer = {
    name: `test-${names}`,
    types: new Set(['bookmark.added']),
    handle: (_trx, events) => {
      for (const event of events) if (fail(event)) throw new Error(`cannot take ${event.id}`);
      seen.push(...events.map((event) => event.id));
      return Promise.resolve();
    },
  };
  return { consumer, seen };
}

async function startRelay(consumers: DurableConsumer[], pollIntervalMs = 20) {
  const relay = createRelay({
    db,
    signal: createLocalEventSignal(),
    log,
    consumers,
    pollIntervalMs,
  });
  running.push(relay);
  await relay.start();
  const transact = createTransact(db, (lastId) => {
    relay.committed(lastId);
  });
  const record = (...events: DomainEvent[]) =>
    transact(async (_trx, recorder) => {
      for (const event of events) recorder.record(event);
    });
  return { relay, record };
}

const bookmarked = (postId: string): DomainEvent => ({
  type: 'bookmark.added',
  payload: { userId: 'relay-test', postId },
});

const idsOf = async (postIds: string[]) =>
  (await db.selectFrom('outbox').select(['id', 'payload']).orderBy('id').execute())
    .filter((row) => postIds.includes((JSON.parse(row.payload) as { postId: string }).postId))
    .map((row) => row.id);

const positionOf = async (name: string) =>
  (
    await db
      .selectFrom('event_consumers')
      .select('last_id')
      .where('name', '=', name)
      .executeTakeFirst()
  )?.last_id ?? -1;

describe('relay', () => {
  it('hands each committed event to listeners once, in id order', async () => {
    const { relay, record } = await startRelay([]);
    const heard: number[] = [];
    relay.listen((events) => heard.push(...events.map((event) => event.id)));
    await record(bookmarked('l-1'), bookmarked('l-2'));
    await record(bookmarked('l-3'));
    await relay.drain();
    await relay.drain();
    expect(heard).toEqual(await idsOf(['l-1', 'l-2', 'l-3']));
    expect(relay.position()).toBe(heard[heard.length - 1]);
  });

  it('runs a durable consumer exactly once per event and keeps its position', async () => {
    const { consumer, seen } = recordingConsumer();
    const first = await startRelay([consumer]);
    await first.record(bookmarked('d-1'));
    await first.relay.drain();
    await first.relay.stop();
    // Recorded while no process runs: the next one catches up on start.
    await createTransact(
      db,
      () => undefined,
    )(async (_trx, recorder) => {
      recorder.record(bookmarked('d-2'));
    });
    const second = await startRelay([consumer]);
    await until(() => seen.length >= 2);
    await second.relay.drain();
    const ids = await idsOf(['d-1', 'd-2']);
    expect(seen.filter((id) => ids.includes(id))).toEqual(ids);
    expect(new Set(seen).size).toBe(seen.length);
    expect(await positionOf(consumer.name)).toBe(Math.max(...seen));
  });

  it('retries a consumer that failed, without waiting for another event', async () => {
    let failuresLeft = 0;
    const { consumer, seen } = recordingConsumer(() => {
      if (failuresLeft === 0) return false;
      failuresLeft -= 1;
      return true;
    });
    const { relay, record } = await startRelay([consumer]);
    await relay.drain();
    seen.length = 0;
    failuresLeft = 1;
    await record(bookmarked('r-1'));
    await relay.drain();
    expect(failuresLeft).toBe(0);
    expect(errors.length).toBeGreaterThan(0);
    // No further event comes: the relay's own polling must try again.
    await until(() => seen.length > 0);
    expect(seen).toEqual(await idsOf(['r-1']));
  });

  it('skips an event that keeps failing, and goes on with the later ones', async () => {
    const { consumer, seen } = recordingConsumer(
      (event) => 'postId' in event.payload && event.payload.postId === 'poison',
    );
    const { relay, record } = await startRelay([consumer], 5);
    await relay.drain();
    seen.length = 0;
    await record(bookmarked('poison'));
    await record(bookmarked('after-poison'));
    await until(() => seen.length > 0, 5000);
    const afterPoison = await idsOf(['after-poison']);
    expect(seen).toEqual(afterPoison);
    // The consumer saw the event inside its transaction; its position moves when that commits.
    await until(async () => (await positionOf(consumer.name)) === afterPoison[0]);
  });

  it('starts where the last event was, even when pruning emptied the outbox', async () => {
    const { relay, record } = await startRelay([]);
    await record(bookmarked('before-quiet'));
    await relay.drain();
    const [newest] = await idsOf(['before-quiet']);
    await relay.stop();
    await db.transaction().execute((trx) => deleteEventsBefore(trx, Date.now() + 1000));
    expect(await db.selectFrom('outbox').select('id').execute()).toEqual([]);
    const restarted = await startRelay([]);
    expect(restarted.relay.position()).toBe(newest);
  });
});
