import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabaseKind } from '../../../test/test-database';
import { runConsumer, type DurableConsumer } from '../events/consumer';
import { appendEvents } from '../events/outbox.repository';
import { createTransact } from '../events/transactions';
import { compiledCommand, compiledQuery, executeCompiled } from './compiled';
import { closeDatabase, createDatabase, type DatabaseHandle } from './database';
import { migrateToLatest } from './migrate';
import type { Database } from './schema';

type Db = Kysely<Database>;

const memberNamed = compiledQuery((db: Db, id: string) =>
  db.selectFrom('users').select(['id', 'username']).where('id', '=', id),
);
const addMember = compiledCommand((db: Db, id: string) =>
  db.insertInto('users').values({
    id,
    username: id,
    first_name: 'Di',
    last_name: 'Rect',
    email: id,
    password_hash: 'x',
    created_at: 0,
    updated_at: 0,
  }),
);

describe.runIf(testDatabaseKind() === 'sqlite')('compiled queries run directly', () => {
  let dataDir = '';
  let handle: DatabaseHandle;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'perch-direct-'));
    handle = createDatabase({ kind: 'sqlite', filename: path.join(dataDir, 'perch.db') });
    await migrateToLatest(handle.db as Kysely<unknown>);
  });

  afterAll(async () => {
    await closeDatabase(handle);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('on the read-only connection once Kysely opened it, with the same answers', async () => {
    expect(await addMember(handle.db, 'r1')).toBe(1n);
    const throughKysely = vi.spyOn(handle.reads, 'executeQuery');
    const answers = [
      await memberNamed(handle.reads, 'r1'),
      await memberNamed(handle.reads, 'r1'),
      await memberNamed(handle.reads, 'nobody'),
    ];
    expect(answers).toEqual([[{ id: 'r1', username: 'r1' }], [{ id: 'r1', username: 'r1' }], []]);
    // The first opened the connection through Kysely; the others ran its statements.
    expect(throughKysely).toHaveBeenCalledTimes(1);
    throughKysely.mockRestore();
  });

  it('reads rows as Kysely does, and leaves the statement to Kysely as it was', async () => {
    expect(await addMember(handle.db, 'k1')).toBe(1n);
    // Opens the read-only connection (through Kysely) if no test did yet.
    await memberNamed(handle.reads, 'k1');
    const wide = CompiledQuery.raw(
      `select id, username, avatar_url, followers_count, created_at, 1.5 as ratio,
        x'00ff' as bytes, u.id as again from users u where id = ?`,
      ['k1'],
    );
    const throughKysely = vi.spyOn(handle.reads, 'executeQuery');
    const direct = await executeCompiled(handle.reads, wide);
    expect(throughKysely).not.toHaveBeenCalled();
    throughKysely.mockRestore();
    expect(direct.rows).toEqual([
      {
        id: 'k1',
        username: 'k1',
        avatar_url: null,
        followers_count: 0,
        created_at: 0,
        ratio: 1.5,
        bytes: Buffer.from([0, 255]),
        again: 'k1',
      },
    ]);
    // Kysely's path prepares the same text, so it gets the same kept statement.
    expect((await handle.reads.executeQuery(wide)).rows).toEqual(direct.rows);
    expect(await executeCompiled(handle.reads, { ...wide, parameters: ['nobody'] })).toEqual({
      rows: [],
    });
  });

  it('reads rows of one column as Kysely does', async () => {
    expect(await addMember(handle.db, 'p1')).toBe(1n);
    expect(await addMember(handle.db, 'p2')).toBe(1n);
    const ids = CompiledQuery.raw(
      "select id as member from users where id in ('p1', 'p2') order by id desc",
    );
    const direct = await executeCompiled(handle.reads, ids);
    expect(direct.rows).toEqual([{ member: 'p2' }, { member: 'p1' }]);
    expect((await handle.reads.executeQuery(ids)).rows).toEqual(direct.rows);
  });

  it("reads a statement's columns again when the schema gave it more", async () => {
    await sql`create table direct_rows (a integer, b text)`.execute(handle.db);
    await sql`insert into direct_rows (a, b) values (1, 'one')`.execute(handle.db);
    const everything = CompiledQuery.raw('select * from direct_rows');
    await executeCompiled(handle.reads, everything);
    expect((await executeCompiled(handle.reads, everything)).rows).toEqual([{ a: 1, b: 'one' }]);
    await sql`alter table direct_rows add column c text default 'two'`.execute(handle.db);
    expect((await executeCompiled(handle.reads, everything)).rows).toEqual([
      { a: 1, b: 'one', c: 'two' },
    ]);
  });

  it('never on the writer outside a transaction', async () => {
    const throughKysely = vi.spyOn(handle.db, 'executeQuery');
    expect(await addMember(handle.db, 'w1')).toBe(1n);
    expect(throughKysely).toHaveBeenCalledTimes(1);
    throughKysely.mockRestore();
  });

  it('in a write transaction while it is open, committed with it', async () => {
    const transact = createTransact(handle.db, () => undefined);
    let used: Db | undefined;
    let calls = -1;
    const seen = await transact(async (trx) => {
      used = trx;
      const throughKysely = vi.spyOn(trx, 'executeQuery');
      await addMember(trx, 't1');
      const rows = await memberNamed(trx, 't1');
      calls = throughKysely.mock.calls.length;
      return rows;
    });
    expect(seen).toEqual([{ id: 't1', username: 't1' }]);
    expect(calls).toBe(0);
    expect(await memberNamed(handle.reads, 't1')).toHaveLength(1);
    // Once ended, the transaction is Kysely's again, which refuses it.
    if (!used) throw new Error('the work did not run');
    await expect(memberNamed(used, 't1')).rejects.toThrow(/committed/);
  });

  it("in a durable consumer's transaction while it is open", async () => {
    await appendEvents(
      handle.db,
      [{ type: 'member.deleted', payload: { userId: 'gone', mediaURLs: [] } }],
      0,
    );
    let calls = -1;
    const consumer: DurableConsumer = {
      name: 'direct-test',
      types: new Set(['member.deleted']),
      handle: async (trx) => {
        const throughKysely = vi.spyOn(trx, 'executeQuery');
        await addMember(trx, 'c1');
        calls = throughKysely.mock.calls.length;
      },
    };
    const log = { error: () => undefined } as unknown as FastifyBaseLogger;
    expect(await runConsumer(handle.db, consumer, { log, committed: () => undefined })).toBe(true);
    expect(calls).toBe(0);
    expect(await memberNamed(handle.reads, 'c1')).toHaveLength(1);
  });

  it('rolled back with a batch an unexpected error spoiled', async () => {
    const transact = createTransact(handle.db, () => undefined);
    const failing = transact(async (trx) => {
      await addMember(trx, 's1');
      throw new Error('disk on fire');
    });
    const passing = transact(async (trx) => addMember(trx, 's2'));
    await expect(failing).rejects.toThrow('disk on fire');
    expect(await passing).toBe(1n);
    expect(await memberNamed(handle.reads, 's1')).toEqual([]);
    expect(await memberNamed(handle.reads, 's2')).toHaveLength(1);
  });
});
