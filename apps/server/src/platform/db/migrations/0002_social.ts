import type { Kysely } from 'kysely';

/** Who-to-follow walks members by popularity. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('users_popularity_idx')
    .ifNotExists()
    .on('users')
    .columns(['followers_count', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_popularity_idx').ifExists().execute();
}
