import type { Kysely } from 'kysely';

/**
 * `posts.quote_id`: the post a post quotes, null for none, indexed to find a post's quotes. It
 * names the post without a foreign key, so that a quoted post's deletion leaves its quotes' rows
 * as they are (they then show it as unavailable) and writes nothing outside its own rows (see
 * docs/decisions/0039-quote-posts.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').addColumn('quote_id', 'text').execute();
  await db.schema.createIndex('posts_quote_id_idx').on('posts').column('quote_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('posts_quote_id_idx').ifExists().execute();
  await db.schema.alterTable('posts').dropColumn('quote_id').execute();
}
