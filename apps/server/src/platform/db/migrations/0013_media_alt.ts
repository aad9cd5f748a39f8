import type { Kysely } from 'kysely';

/** A post image's description (alt text), read by screen readers and shown on demand. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').addColumn('media_alt', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').dropColumn('media_alt').execute();
}
