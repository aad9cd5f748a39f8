import type { Kysely } from 'kysely';

/**
 * Trending lists of one author or of the authors a member follows read like counts straight from
 * posts_user_trending_idx instead of looking up every post. A member's liked posts page through
 * their likes by post id (ids are time-ordered), which likes_user_post_idx serves in order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('posts_user_trending_idx')
    .ifNotExists()
    .on('posts')
    .columns(['user_id', 'like_count', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('likes_user_post_idx')
    .ifNotExists()
    .on('likes')
    .columns(['user_id', 'post_id'])
    .execute();
  await db.schema.dropIndex('likes_user_idx').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('likes_user_idx')
    .ifNotExists()
    .on('likes')
    .columns(['user_id', 'created_at', 'post_id'])
    .execute();
  await db.schema.dropIndex('likes_user_post_idx').ifExists().execute();
  await db.schema.dropIndex('posts_user_trending_idx').ifExists().execute();
}
