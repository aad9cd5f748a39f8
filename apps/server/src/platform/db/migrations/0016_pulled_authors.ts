import type { Kysely } from 'kysely';

/**
 * Widely followed members whose posts are no longer written to their followers' home timelines
 * (see modules/timelines): Home reads their posts when it is read. `since` is the first post not
 * written out; older ones are in the timelines already. A member stays here once added, so a post
 * made while they were widely followed is never missed after they lose followers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pulled_authors')
    .ifNotExists()
    .addColumn('user_id', 'varchar(26)', (c) =>
      c.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('since', 'varchar(26)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pulled_authors').ifExists().execute();
}
