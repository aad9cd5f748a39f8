import type { Kysely } from 'kysely';

/**
 * Where each member stopped reading Home and their notifications, as Mastodon's apps save it
 * (modules/markers): one row per member and timeline, `version` counting the saves. Rows go
 * with the member.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('markers')
    .ifNotExists()
    .addColumn('user_id', 'varchar(26)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('timeline', 'varchar(16)', (c) => c.notNull())
    .addColumn('last_read_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('markers_pk', ['user_id', 'timeline'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('markers').ifExists().execute();
}
