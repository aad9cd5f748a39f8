import path from 'node:path';
import { loadConfig } from '../app/config';
import { closeDatabase, createDatabase, targetFromConfig } from '../platform/db/database';
import { migrateToLatest } from '../platform/db/migrate';
import { seedDemoDataIfEmpty } from '../platform/db/seed';
import { whileStarting } from '../platform/db/startup-lock';
import type { Kysely } from 'kysely';

/**
 * `npm run seed`: migrate, then add the demo data if the database is empty, under the same lock as
 * a starting server's, so it may run while instances start.
 */
const config = loadConfig(process.env, { webDir: null });
const database = createDatabase(targetFromConfig(config));
const { db } = database;
try {
  const seeded = await whileStarting(database, async () => {
    await migrateToLatest(db as Kysely<unknown>);
    return seedDemoDataIfEmpty(db, {
      passwordHashCost: config.passwordHashCost,
      mediaDir: path.resolve(config.dataDir, 'media'),
    });
  });
  console.log(seeded ? 'demo data added' : 'database already has data; nothing added');
} finally {
  await closeDatabase(database);
}
