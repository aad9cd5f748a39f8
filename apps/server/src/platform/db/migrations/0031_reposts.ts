import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Reposts (see modules/interactions/repost.ts) and their place in Home.
 *
 * - `reposts`: one row per member and post, with its own ULID minted when it was made, which is
 *   where it stands in Home. The member index serves their followers' Home read from follows and
 *   the on-demand authors' reposts; the post index serves the cascade. Rows go with the post or
 *   the member.
 * - `posts.repost_count`: kept in the repost's transaction, as likes are.
 * - `home_timeline_entries` is made again ordered by `entry_id`, the id of what brought the post
 *   into Home: the post's own id, or the newest repost of it by someone the member follows
 *   (`reposted_by`). One entry per post is kept by a unique (user_id, post_id): a newer repost
 *   moves that entry up instead of adding another, so a post reposted several times shows once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reposts')
    .ifNotExists()
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('post_id', 'varchar(26)', (c) =>
      c.notNull().references('posts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(26)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('reposts_post_user_idx')
    .unique()
    .on('reposts')
    .columns(['post_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('reposts_user_idx')
    .on('reposts')
    .columns(['user_id', 'id'])
    .execute();
  await db.schema
    .alterTable('posts')
    .addColumn('repost_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await remakeEntries(db);
}

/** The timeline entries, keyed by member and entry id (SQLite: clustered, as in 0008). */
async function remakeEntries(db: Kysely<unknown>): Promise<void> {
  const clustered = isPostgres(db) ? sql`` : sql`without rowid`;
  await db.schema
    .createTable('home_timeline_entries_next')
    .addColumn('user_id', 'varchar(26)', (c) =>
      c.notNull().references('home_timelines.user_id').onDelete('cascade'),
    )
    .addColumn('entry_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('post_id', 'varchar(26)', (c) =>
      c.notNull().references('posts.id').onDelete('cascade'),
    )
    .addColumn('author_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('reposted_by', 'varchar(26)')
    .addPrimaryKeyConstraint('home_timeline_entries_next_pk', ['user_id', 'entry_id'])
    .modifyEnd(clustered)
    .execute();
  await sql`insert into home_timeline_entries_next (user_id, entry_id, post_id, author_id)
            select user_id, post_id, post_id, author_id from home_timeline_entries`.execute(db);
  await db.schema.dropTable('home_timeline_entries').execute();
  await db.schema
    .alterTable('home_timeline_entries_next')
    .renameTo('home_timeline_entries')
    .execute();
  await db.schema
    .createIndex('home_timeline_entries_user_post_idx')
    .unique()
    .on('home_timeline_entries')
    .columns(['user_id', 'post_id'])
    .execute();
  await db.schema
    .createIndex('home_timeline_entries_post_idx')
    .ifNotExists()
    .on('home_timeline_entries')
    .columns(['post_id'])
    .execute();
  // The few entries a repost brought, found again when it is undone or its reposter leaves.
  await db.schema
    .createIndex('home_timeline_entries_reposted_by_idx')
    .on('home_timeline_entries')
    .columns(['reposted_by'])
    .where(sql.ref('reposted_by'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reposts').ifExists().execute();
  await db.schema.alterTable('posts').dropColumn('repost_count').execute();
}
