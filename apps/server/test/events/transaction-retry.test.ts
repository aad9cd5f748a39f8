import { ErrorMessages, type DomainEvent } from '@perch/contract';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../src/lib/errors';
import { newId } from '../../src/lib/ids';
import {
  TRANSACTION_ATTEMPTS,
  createTransact,
  retryingConflicts,
} from '../../src/platform/events/transactions';
import { testDatabaseKind, useMigratedTestDatabase } from '../test-database';

const withCode = (code: string) => Object.assign(new Error(`failed with ${code}`), { code });

describe('retryingConflicts', () => {
  it('runs again after a deadlock or a serialization failure', async () => {
    const run = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(withCode('40P01'))
      .mockRejectedValueOnce(withCode('40001'))
      .mockResolvedValue('done');
    expect(await retryingConflicts(run)).toBe('done');
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('passes any other error on at once', async () => {
    for (const error of [withCode('23505'), withCode('55P03'), new AppError(404, 'gone')]) {
      const run = vi.fn<() => Promise<string>>().mockRejectedValue(error);
      await expect(retryingConflicts(run)).rejects.toBe(error);
      expect(run).toHaveBeenCalledTimes(1);
    }
  });

  it(`answers 503 when all ${TRANSACTION_ATTEMPTS} runs conflict`, async () => {
    const conflict = withCode('40P01');
    const run = vi.fn<() => Promise<string>>().mockRejectedValue(conflict);
    const error: unknown = await retryingConflicts(run).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).statusCode).toBe(503);
    expect((error as AppError).message).toBe(ErrorMessages.databaseBusy);
    expect((error as AppError).cause).toBe(conflict);
    expect(run).toHaveBeenCalledTimes(TRANSACTION_ATTEMPTS);
  });
});

describe.skipIf(testDatabaseKind() !== 'postgres')('createTransact on PostgreSQL', () => {
  const t = useMigratedTestDatabase('transaction-retry');

  const changed = (userId: string, unreadCount: number): DomainEvent => ({
    type: 'notifications.changed',
    payload: { userId, unreadCount },
  });

  it("runs the work again after a serialization failure, keeping only the last run's rows and events", async () => {
    const committed: number[] = [];
    const heard: DomainEvent[][] = [];
    const transact = createTransact(
      t.db,
      (lastId) => committed.push(lastId),
      (events) => heard.push([...events]),
    );
    const ids: string[] = [];
    const answer = await transact(async (trx, events) => {
      const id = newId(Date.now());
      ids.push(id);
      await trx
        .insertInto('users')
        .values({
          id,
          username: `retry_${ids.length}`,
          first_name: 'Retry',
          last_name: 'Member',
          email: `retry_${id}@example.com`,
          password_hash: 'not-a-hash',
          avatar_url: null,
          created_at: 0,
          updated_at: 0,
        })
        .execute();
      events.record(changed(id, ids.length));
      // The first run fails as PostgreSQL fails a transaction it cannot serialise.
      if (ids.length === 1) {
        await sql`do $$ begin raise exception 'forced' using errcode = 'serialization_failure'; end $$`.execute(
          trx,
        );
      }
      return id;
    });

    const [first, second] = ids;
    expect(ids).toHaveLength(2);
    expect(answer).toBe(second);
    const users = await t.db.selectFrom('users').select('id').execute();
    expect(users.map((row) => row.id)).toEqual([second]);
    const outbox = await t.db.selectFrom('outbox').select('payload').execute();
    expect(outbox.map((row) => JSON.parse(row.payload) as unknown)).toEqual([
      { userId: second, unreadCount: 2 },
    ]);
    expect(heard).toEqual([[changed(second ?? '', 2)]]);
    expect(committed).toHaveLength(1);
    expect(first).not.toBe(second);
  });
});
