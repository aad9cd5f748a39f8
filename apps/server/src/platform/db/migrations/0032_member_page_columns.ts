import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * SQLite's covering index of each member's posts (0019, made again in 0026) holds every column a
 * card shows, so that a member's page reads a few adjacent pages of the index instead of one page
 * of the table per post. Albums (0028), polls (0029), quotes (0030) and reposts (0031) added
 * columns a card shows: it is made again, once, with all of them. PostgreSQL keeps no such index.
 */
const CARD_COLUMNS_BEFORE = [
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
  'content_warning',
  'sensitive',
  'preview_card',
];

const CARD_COLUMNS = [...CARD_COLUMNS_BEFORE, 'media', 'poll', 'quote_id', 'repost_count'];

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

async function makeCoveringIndex(db: Kysely<unknown>, columns: string[]): Promise<void> {
  if (isPostgres(db)) return;
  await db.schema.dropIndex('posts_user_card_idx').ifExists().execute();
  await db.schema.createIndex('posts_user_card_idx').on('posts').columns(columns).execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await makeCoveringIndex(db, CARD_COLUMNS);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await makeCoveringIndex(db, CARD_COLUMNS_BEFORE);
}
