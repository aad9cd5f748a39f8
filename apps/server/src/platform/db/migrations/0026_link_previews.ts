import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * Preview cards of links in posts (Mastodon's name for them).
 *
 * - `preview_cards`: what a link's page said of itself, one row per URL, so that every post linking
 *   to it shares one fetch. `error` says why a fetch gave no card; such a row is fetched again only
 *   after a while (see modules/preview-cards), so that a dead link is not fetched for every post.
 *   `image_url` is a copy of the page's image in Perch's media: an image a card names is kept.
 * - `preview_card_fetches`: the posts waiting for their link's card, taken by the card worker.
 * - `posts.preview_card`: the card the post shows, as JSON (as `entities` is kept), so that a
 *   post's row alone makes its view; its `url` names the `preview_cards` row it was copied from.
 *
 * SQLite's covering index of each member's posts (0019) holds every column a card shows: it is made
 * again here, once, with the columns 0025 and this migration added, or a member's page would read
 * the table for every post.
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
];

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof PostgresAdapter;

async function makeCoveringIndex(db: Kysely<unknown>, columns: string[]): Promise<void> {
  if (isPostgres(db)) return;
  await db.schema.dropIndex('posts_user_card_idx').ifExists().execute();
  await db.schema.createIndex('posts_user_card_idx').on('posts').columns(columns).execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('preview_cards')
    .addColumn('url', 'varchar(2048)', (c) => c.primaryKey())
    .addColumn('title', 'text')
    .addColumn('description', 'text')
    .addColumn('site_name', 'text')
    .addColumn('image_url', 'varchar(300)')
    .addColumn('image_width', 'integer')
    .addColumn('image_height', 'integer')
    .addColumn('error', 'varchar(50)')
    .addColumn('fetched_at', 'bigint', (c) => c.notNull())
    .execute();
  // Releasing and sweeping media ask whether a card shows an image.
  await db.schema
    .createIndex('preview_cards_image_url_idx')
    .on('preview_cards')
    .column('image_url')
    .execute();

  await db.schema
    .createTable('preview_card_fetches')
    .addColumn('post_id', 'varchar(26)', (c) =>
      c.primaryKey().references('posts.id').onDelete('cascade'),
    )
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('queued_at', 'bigint', (c) => c.notNull())
    .addColumn('claimed_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('preview_card_fetches_queued_idx')
    .on('preview_card_fetches')
    .column('queued_at')
    .execute();

  await db.schema.alterTable('posts').addColumn('preview_card', 'text').execute();
  await makeCoveringIndex(db, [...CARD_COLUMNS_BEFORE, 'preview_card']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await makeCoveringIndex(db, CARD_COLUMNS_BEFORE);
  await db.schema.alterTable('posts').dropColumn('preview_card').execute();
  await db.schema.dropTable('preview_card_fetches').ifExists().execute();
  await db.schema.dropTable('preview_cards').ifExists().execute();
}
