import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/platform/db/migrate';
import { newId } from '../../src/lib/ids';
import { createDatabaseJobLock, createScheduler } from '../../src/platform/infra/jobs';
import { sweepOrphanMedia, uploadMedia } from '../../src/modules/media/media.service';
import { createDiskMediaStore } from '../../src/modules/media/media.store';
import { createTestDatabase, type TestDatabase } from '../test-database';
import { png } from './fixtures';

let dataDir: string;
let database: TestDatabase;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'perch-media-plugin-'));
  database = await createTestDatabase(dataDir);
  await migrateToLatest(database.handle.db as Kysely<unknown>);
});
afterAll(async () => {
  await database.handle.db.destroy();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('the scheduled sweep removes unused uploads and stops cleanly', async () => {
  const { db } = database.handle;
  const mediaDir = path.join(dataDir, 'media');
  const store = createDiskMediaStore(mediaDir);
  const now = Date.now();
  const userId = newId();
  await db
    .insertInto('users')
    .values({
      id: userId,
      username: 'sweeper_owner',
      first_name: 'Sweeper',
      last_name: 'Owner',
      email: 'sweeper@example.com',
      password_hash: 'x',
      created_at: now,
      updated_at: now,
    })
    .execute();
  const media = await uploadMedia(db, store, {
    ownerId: userId,
    data: await png(20, 20, 1234),
    purpose: 'post',
    now: now - 60_000,
  });
  const file = path.join(mediaDir, media.url.replace(/^\/media\//, ''));
  expect(existsSync(file)).toBe(true);

  const log = { error: () => undefined, warn: () => undefined };
  const scheduler = createScheduler({
    lock: createDatabaseJobLock(db, { holder: 'sweeper-test', log }),
    log,
  });
  scheduler.every('media-sweep', 20, () => sweepOrphanMedia(db, store, { olderThanMs: 1000 }), {
    firstDelayMs: 0,
  });

  const deadline = Date.now() + 5000;
  while (existsSync(file) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(existsSync(file)).toBe(false);
  await scheduler.stop();
});
