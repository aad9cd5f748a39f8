import type { Kysely } from 'kysely';

/**
 * A member's pinned posts (see modules/interactions/pin.ts): one row per member and post, at most
 * PINNED_POSTS_MAX a member, so the key alone serves both "is this post pinned" (a card's member
 * and post) and a profile's pins. The post index serves the cascade when a post is deleted; rows
 * go with the post or the member (foreign keys cascade).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pinned_posts')
    .ifNotExists()
    .addColumn('user_id', 'varchar(26)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('post_id', 'varchar(26)', (c) =>
      c.notNull().references('posts.id').onDelete('cascade'),
    )
    .addColumn('pinned_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('pinned_posts_pk', ['user_id', 'post_id'])
    .execute();
  await db.schema
    .createIndex('pinned_posts_post_idx')
    .ifNotExists()
    .on('pinned_posts')
    .columns(['post_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pinned_posts').ifExists().execute();
}
