import type { Kysely } from 'kysely';

/**
 * Each upload's blurhash: a blurred likeness drawn while the image loads, and in place of an
 * image marked sensitive. Null for images uploaded before it was computed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('media').addColumn('blurhash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('media').dropColumn('blurhash').execute();
}
