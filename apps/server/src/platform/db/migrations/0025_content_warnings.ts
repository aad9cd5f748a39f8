import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * A post's content warning (null for none) and whether its images are sensitive (0 or 1, as the
 * schema keeps flags); and a member's reading preference, on their row as their privacy settings
 * are: 1 shows images marked sensitive at once instead of blurred. Adding columns with a constant
 * default rewrites no rows on either database.
 *
 * SQLite: a member's page reads its cards from posts_user_card_idx alone (migration 0019), so the
 * index is made again with the two new columns; without them every card would look up its row.
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
  await db.schema.alterTable('posts').addColumn('content_warning', 'text').execute();
  await db.schema
    .alterTable('posts')
    .addColumn('sensitive', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`sensitive in (0, 1)`),
    )
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('always_show_sensitive', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`always_show_sensitive in (0, 1)`),
    )
    .execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await db.schema.dropIndex('posts_user_card_idx').execute();
  await db.schema
    .createIndex('posts_user_card_idx')
    .on('posts')
    .columns([...CARD_COLUMNS, 'content_warning', 'sensitive'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) {
    await db.schema.dropIndex('posts_user_card_idx').execute();
    await db.schema.createIndex('posts_user_card_idx').on('posts').columns(CARD_COLUMNS).execute();
  }
  await db.schema.alterTable('users').dropColumn('always_show_sensitive').execute();
  await db.schema.alterTable('posts').dropColumn('sensitive').execute();
  await db.schema.alterTable('posts').dropColumn('content_warning').execute();
}
