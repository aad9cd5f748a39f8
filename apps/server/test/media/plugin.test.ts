import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate';
import { newId } from '../../src/lib/ids';
import { mediaPlugin } from '../../src/modules/media/media.plugin';
import { uploadMedia } from '../../src/modules/media/media.service';
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

it('sweeps while the app runs and stops when it closes', async () => {
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

  const app = Fastify({ logger: false });
  app.decorate('db', db);
  await app.register(mediaPlugin, { store, sweepIntervalMs: 20, orphanGraceMs: 1000 });
  expect(app.mediaStore).toBe(store);
  await app.ready();

  const deadline = Date.now() + 5000;
  while (existsSync(file) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(existsSync(file)).toBe(false);
  await app.close();
});
