import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * SQLite: each member's posts with every column their cards show, in the member's order. A
 * member's page was 21 lookups of rows scattered over the whole table (posts are stored in the
 * order they were written), each a page of the file copied in; it is now read from a few adjacent
 * pages of this index. It replaces posts_user_created_idx, whose columns lead it. Likes and
 * comments change a post's counts and so this index too.
 *
 * PostgreSQL keeps the narrow index: it updates every index of a row a like changes (the trending
 * indexes hold its count), and an index-only scan there still visits the table for rows changed
 * since the last vacuum, as the posts liked and commented lately are.
 */
const CARD_COLUMNS = [
  'user_id',
  'created_at',
  'id',
  'content',
  'entities',
  'media_url',
  'media_alt',
  'like_count',
  'comment_count',
  'updated_at',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await db.schema.createIndex('posts_user_card_idx').on('posts').columns(CARD_COLUMNS).execute();
  await db.schema.dropIndex('posts_user_created_idx').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await db.schema
    .createIndex('posts_user_created_idx')
    .on('posts')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await db.schema.dropIndex('posts_user_card_idx').execute();
}
