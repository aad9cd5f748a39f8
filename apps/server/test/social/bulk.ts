import type { FastifyInstance } from 'fastify';
import { newId } from '../../src/lib/ids';

/**
 * Writes many rows straight into the database, counters included, for tests of large answers
 * (signing 20,000 members up through the API would take minutes). Rows go in chunks that stay
 * under both databases' parameter limits.
 */
const CHUNK = 500;

async function inChunks<T>(items: readonly T[], write: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += CHUNK) await write(items.slice(i, i + CHUNK));
}

let batch = 0;

/** `count` members named `<prefix>_<n>`; their ids in name order. */
export async function insertMembers(
  app: FastifyInstance,
  count: number,
  prefix = `bulk${process.pid}_${++batch}`,
): Promise<string[]> {
  const now = Date.now();
  const rows = Array.from({ length: count }, (_, i) => ({
    id: newId(now),
    username: `${prefix}_${i}`,
    first_name: 'Bulk',
    last_name: `Member ${i}`,
    email: `${prefix}_${i}@example.com`,
    password_hash: 'not-a-hash',
    avatar_url: null,
    created_at: now,
    updated_at: now,
  }));
  await inChunks(rows, (chunk) => app.db.insertInto('users').values(chunk).execute());
  return rows.map((row) => row.id);
}

/**
 * One member and many on the other side of a follow: `many` follow `one` (direction 'followers')
 * or `one` follows `many` ('followees'); the rows, then both sides' counters.
 */
async function insertFollows(
  app: FastifyInstance,
  one: string,
  many: readonly string[],
  direction: 'followers' | 'followees',
): Promise<void> {
  const now = Date.now();
  const manyFollow = direction === 'followers';
  const [manyCounter, oneCounter] = manyFollow
    ? (['following_count', 'followers_count'] as const)
    : (['followers_count', 'following_count'] as const);
  await inChunks(many, (chunk) =>
    app.db
      .insertInto('follows')
      .values(
        chunk.map((id) => ({
          follower_id: manyFollow ? id : one,
          followee_id: manyFollow ? one : id,
          created_at: now,
        })),
      )
      .execute(),
  );
  await inChunks(many, (chunk) =>
    app.db
      .updateTable('users')
      .set((eb) => ({ [manyCounter]: eb(manyCounter, '+', 1) }))
      .where('id', 'in', chunk)
      .execute(),
  );
  await app.db
    .updateTable('users')
    .set((eb) => ({ [oneCounter]: eb(oneCounter, '+', many.length) }))
    .where('id', '=', one)
    .execute();
}

/** Each of `followerIds` follows `followeeId`. */
export const insertFollowers = (
  app: FastifyInstance,
  followeeId: string,
  followerIds: readonly string[],
) => insertFollows(app, followeeId, followerIds, 'followers');

/** `followerId` follows each of `followeeIds`. */
export const insertFollowees = (
  app: FastifyInstance,
  followerId: string,
  followeeIds: readonly string[],
) => insertFollows(app, followerId, followeeIds, 'followees');

/** Each of `userIds` likes the post. */
export async function insertLikes(
  app: FastifyInstance,
  postId: string,
  userIds: readonly string[],
): Promise<void> {
  const now = Date.now();
  await inChunks(userIds, (chunk) =>
    app.db
      .insertInto('likes')
      .values(chunk.map((id) => ({ post_id: postId, user_id: id, created_at: now })))
      .execute(),
  );
  await app.db
    .updateTable('posts')
    .set((eb) => ({ like_count: eb('like_count', '+', userIds.length) }))
    .where('id', '=', postId)
    .execute();
}

/** One comment on the post by each of `userIds`, a millisecond apart, in that order. */
export async function insertComments(
  app: FastifyInstance,
  postId: string,
  userIds: readonly string[],
  text = (i: number) => `Comment ${i}`,
): Promise<void> {
  const start = Date.now();
  const rows = userIds.map((userId, i) => ({
    id: newId(start + i),
    post_id: postId,
    user_id: userId,
    text: text(i),
    created_at: start + i,
    updated_at: start + i,
  }));
  await inChunks(rows, (chunk) => app.db.insertInto('comments').values(chunk).execute());
  await app.db
    .updateTable('posts')
    .set((eb) => ({ comment_count: eb('comment_count', '+', rows.length) }))
    .where('id', '=', postId)
    .execute();
}
