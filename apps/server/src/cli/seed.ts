import path from 'node:path';
import { loadConfig } from '../app/config';
import { closeDatabase, createDatabase, targetFromConfig } from '../platform/db/database';
import { migrateToLatest } from '../platform/db/migrate';
import { seedDemoDataIfEmpty } from '../platform/db/seed';
import type { Kysely } from 'kysely';

/** `npm run seed`: migrate, then add the demo data if the database is empty. */
const config = loadConfig(process.env, { webDir: null });
const database = createDatabase(targetFromConfig(config));
const { db } = database;
try {
  await migrateToLatest(db as Kysely<unknown>);
  const seeded = await seedDemoDataIfEmpty(db, {
    passwordHashCost: config.passwordHashCost,
    mediaDir: path.resolve(config.dataDir, 'media'),
  });
  console.log(seeded ? 'demo data added' : 'database already has data; nothing added');
} finally {
  await closeDatabase(database);
}
