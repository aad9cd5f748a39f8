import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Home timelines (see modules/timelines): for each member who reads Home, the ids of the newest
 * posts of the authors they follow and their own, written as posts are made. `floor` is the oldest
 * post id down to which the entries are complete ('' when they hold all of Home); older posts are
 * read with the query that computes Home from follows. Entries go with their post, their member's
 * timeline and the member (foreign keys cascade).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('home_timelines')
    .ifNotExists()
    .addColumn('user_id', 'varchar(26)', (c) =>
      c.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('floor', 'varchar(26)', (c) => c.notNull().defaultTo(''))
    .addColumn('read_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('home_timelines_read_idx')
    .ifNotExists()
    .on('home_timelines')
    .columns(['read_at'])
    .execute();
  // SQLite: the key is the row, so a page of one member's timeline is one range of one b-tree.
  const clustered = isPostgres(db) ? sql`` : sql`without rowid`;
  await db.schema
    .createTable('home_timeline_entries')
    .ifNotExists()
    .addColumn('user_id', 'varchar(26)', (c) =>
      c.notNull().references('home_timelines.user_id').onDelete('cascade'),
    )
    .addColumn('post_id', 'varchar(26)', (c) =>
      c.notNull().references('posts.id').onDelete('cascade'),
    )
    .addColumn('author_id', 'varchar(26)', (c) => c.notNull())
    .addPrimaryKeyConstraint('home_timeline_entries_pk', ['user_id', 'post_id'])
    .modifyEnd(clustered)
    .execute();
  await db.schema
    .createIndex('home_timeline_entries_post_idx')
    .ifNotExists()
    .on('home_timeline_entries')
    .columns(['post_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('home_timeline_entries').ifExists().execute();
  await db.schema.dropTable('home_timelines').ifExists().execute();
}
