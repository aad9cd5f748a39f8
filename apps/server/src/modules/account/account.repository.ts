import { sql, type Kysely } from 'kysely';
import { withRowLock } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

/*
 * The queries that delete a member's account, one statement each, in the order the service runs
 * them. Counters on other members' rows drop by exactly the rows that go (posts.like_count,
 * posts.comment_count, posts.repost_count, comments.upvote_count/downvote_count, users.followers_count and
 * following_count; tags.post_count is kept by triggers); what has no counter goes through the
 * foreign keys' cascades when the member's posts and row are deleted.
 */

/**
 * Locks, in id order, every post the deletion changes: the member's own, and those they liked,
 * reposted, commented on, voted in the poll of or whose comments they voted on (PostgreSQL: FOR NO KEY UPDATE, which a change
 * under a post (lockPostForChange) waits for, but a row pointing at the post does not). With
 * `wait: false` it fails at once (55P03) when another transaction holds one of them.
 */
export async function lockPostsTouchedBy(db: Db, userId: string, wait: boolean): Promise<void> {
  const query = db
    .selectFrom('posts as p')
    .select('p.id')
    .where('p.id', 'in', (eb) =>
      eb
        .selectFrom('posts')
        .select('posts.id')
        .where('posts.user_id', '=', userId)
        .union(
          eb.selectFrom('likes').select('likes.post_id as id').where('likes.user_id', '=', userId),
        )
        .union(
          eb
            .selectFrom('reposts')
            .select('reposts.post_id as id')
            .where('reposts.user_id', '=', userId),
        )
        .union(
          eb
            .selectFrom('comments')
            .select('comments.post_id as id')
            .where('comments.user_id', '=', userId),
        )
        .union(
          eb
            .selectFrom('poll_voters as pv')
            .innerJoin('polls', 'polls.id', 'pv.poll_id')
            .select('polls.post_id as id')
            .where('pv.user_id', '=', userId),
        )
        .union(
          eb
            .selectFrom('comment_votes as v')
            .innerJoin('comments as c', 'c.id', 'v.comment_id')
            .select('c.post_id as id')
            .where('v.user_id', '=', userId),
        ),
    )
    .orderBy('p.id');
  await withRowLock(db, query, (q) =>
    wait ? q.forNoKeyUpdate() : q.forNoKeyUpdate().noWait(),
  ).execute();
}

/**
 * The member's row, locked until the transaction ends (PostgreSQL: FOR UPDATE, which also holds
 * off every write that would insert a row pointing at them); undefined when they are gone.
 */
export function lockMember(
  db: Db,
  userId: string,
): Promise<{ id: string; username: string; avatar_url: string | null } | undefined> {
  const query = db
    .selectFrom('users')
    .select(['id', 'username', 'avatar_url'])
    .where('id', '=', userId);
  return withRowLock(db, query, (q) => q.forUpdate()).executeTakeFirst();
}

/** Locks, in id order, the members who follow the member or whom they follow (see above). */
export async function lockRelations(db: Db, userId: string, wait: boolean): Promise<void> {
  const query = db
    .selectFrom('users as u')
    .select('u.id')
    .where('u.id', 'in', (eb) =>
      eb
        .selectFrom('follows')
        .select('follows.followee_id as id')
        .where('follows.follower_id', '=', userId)
        .union(
          eb
            .selectFrom('follows')
            .select('follows.follower_id as id')
            .where('follows.followee_id', '=', userId),
        ),
    )
    .orderBy('u.id');
  await withRowLock(db, query, (q) =>
    wait ? q.forNoKeyUpdate() : q.forNoKeyUpdate().noWait(),
  ).execute();
}

/** Up to `limit` of the distinct images the member's posts show, every image of each album. */
export async function imagesOfPosts(db: Db, userId: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('post_media as pm')
    .innerJoin('posts as p', 'p.id', 'pm.post_id')
    .select('pm.url')
    .distinct()
    .where('p.user_id', '=', userId)
    .limit(limit)
    .execute();
  return rows.map((row) => row.url);
}

export async function decrementFollowersOfFollowees(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ followers_count: eb('followers_count', '-', 1) }))
    .where('id', 'in', (eb) =>
      eb.selectFrom('follows').select('followee_id').where('follower_id', '=', userId),
    )
    .execute();
}

export async function decrementFollowingOfFollowers(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ following_count: eb('following_count', '-', 1) }))
    .where('id', 'in', (eb) =>
      eb.selectFrom('follows').select('follower_id').where('followee_id', '=', userId),
    )
    .execute();
}

/** Other members' posts lose the member's like (their own posts go whole). */
export async function decrementLikeCounts(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('posts')
    .set((eb) => ({ like_count: eb('like_count', '-', 1) }))
    .where('user_id', '<>', userId)
    .where('id', 'in', (eb) =>
      eb.selectFrom('likes').select('post_id').where('user_id', '=', userId),
    )
    .execute();
}

export async function deleteLikes(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('likes').where('user_id', '=', userId).execute();
}

/** Other members' posts lose the member's repost (their own posts go whole). */
export async function decrementRepostCounts(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('posts')
    .set((eb) => ({ repost_count: eb('repost_count', '-', 1) }))
    .where('user_id', '<>', userId)
    .where('id', 'in', (eb) =>
      eb.selectFrom('reposts').select('post_id').where('user_id', '=', userId),
    )
    .execute();
}

export async function deleteReposts(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('reposts').where('user_id', '=', userId).execute();
}

/** Comments lose the member's votes of one kind (a member has at most one vote per comment). */
export async function decrementVoteCounts(db: Db, userId: string, vote: 1 | -1): Promise<void> {
  const column = vote === 1 ? 'upvote_count' : 'downvote_count';
  await db
    .updateTable('comments')
    .set((eb) => ({ [column]: eb(column, '-', 1) }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('comment_votes')
        .select('comment_id')
        .where('user_id', '=', userId)
        .where('vote', '=', vote),
    )
    .execute();
}

export async function deleteVotes(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('comment_votes').where('user_id', '=', userId).execute();
}

/** Other members' posts lose the member's comments from their counts. */
export async function decrementCommentCounts(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('posts')
    .set({
      comment_count: sql<number>`comment_count - (select count(*) from comments c
        where c.post_id = posts.id and c.user_id = ${userId})`,
    })
    .where('user_id', '<>', userId)
    .where('id', 'in', (eb) =>
      eb.selectFrom('comments').select('post_id').where('user_id', '=', userId),
    )
    .execute();
}

/** Their votes, tags, mentions and notifications go with them (foreign keys cascade). */
export async function deleteComments(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('comments').where('user_id', '=', userId).execute();
}

/**
 * With them go their likes, comments (and those comments' votes, tags and mentions), bookmarks,
 * mentions, notifications and timeline entries (foreign keys cascade). Their tags go first, in
 * tag order (see EntitiesService.forgetPostsOf).
 */
export async function deletePosts(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('posts').where('user_id', '=', userId).execute();
}

/**
 * Last: with the row go their follows both ways, bookmarks, uploads, sessions, home timeline,
 * mentions of them and notifications to or from them (foreign keys cascade).
 */
export async function deleteMember(db: Db, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('users').where('id', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** A setting kept as a 0-or-1 flag on the member's row (privacy, reading preferences). */
export type SettingColumn = 'public_profile' | 'noindex' | 'always_show_sensitive';

/** The member's settings named; undefined when they are gone. */
export function settingsOf<C extends SettingColumn>(
  db: Db,
  userId: string,
  columns: readonly C[],
): Promise<Record<C, number> | undefined> {
  return db
    .selectFrom('users')
    .select(columns)
    .where('id', '=', userId)
    .executeTakeFirst() as Promise<Record<C, number> | undefined>;
}

/** Sets the settings given, leaving the others; false when the member is gone. */
export async function updateSettings(
  db: Db,
  userId: string,
  changes: Partial<Record<SettingColumn, number>>,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set(changes)
    .where('id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
