import { sql, type Kysely } from 'kysely';

/**
 * A post's content warning (null for none) and whether its images are sensitive (0 or 1, as the
 * schema keeps flags); and a member's reading preference, on their row as their privacy settings
 * are: 1 shows images marked sensitive at once instead of blurred. Adding columns with a constant
 * default rewrites no rows on either database.
 *
 * SQLite's covering index of each member's posts (0019) gains the two columns in 0026, which makes
 * it again once for the columns of both.
 */
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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('always_show_sensitive').execute();
  await db.schema.alterTable('posts').dropColumn('sensitive').execute();
  await db.schema.alterTable('posts').dropColumn('content_warning').execute();
}
