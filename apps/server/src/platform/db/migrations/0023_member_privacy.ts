import { sql, type Kysely } from 'kysely';

/**
 * A member's two privacy settings, on their row so that a public page reads them with the member
 * in one lookup on the username's index: whether people who are not signed in may see their
 * profile and posts (on by default, as before), and whether search engines are asked not to
 * index them (off by default). Integers 0 and 1 on both databases, as the rest of the schema
 * keeps flags; adding a column with a constant default rewrites no rows on either.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('public_profile', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`public_profile in (0, 1)`),
    )
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('noindex', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`noindex in (0, 1)`),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('noindex').execute();
  await db.schema.alterTable('users').dropColumn('public_profile').execute();
}
