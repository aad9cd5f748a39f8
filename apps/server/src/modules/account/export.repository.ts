import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

/*
 * A member's data a page at a time, for their export: each query reads `limit` rows after the
 * previous page's last key (keyset pagination on an index that starts with the member), so an
 * export of any size holds one page in memory and costs the same per page to its end.
 */

/** Where a page sorted by time and id starts: after this (time, id), or from the start. */
export type TimeKey = readonly [number, string] | null;

export function postsPage(db: Db, userId: string, after: TimeKey, limit: number) {
  let query = db
    .selectFrom('posts')
    .select([
      'id',
      'content',
      'media_url',
      'media_alt',
      'media',
      'content_warning',
      'sensitive',
      'preview_card',
      'poll',
      'like_count',
      'comment_count',
      'created_at',
      'updated_at',
      'quote_id',
    ])
    .where('user_id', '=', userId);
  if (after) {
    query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(...after)));
  }
  return query.orderBy('created_at').orderBy('id').limit(limit).execute();
}

export function commentsPage(db: Db, userId: string, after: TimeKey, limit: number) {
  let query = db
    .selectFrom('comments')
    .select(['id', 'post_id', 'text', 'upvote_count', 'downvote_count', 'created_at', 'updated_at'])
    .where('user_id', '=', userId);
  if (after) {
    query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(...after)));
  }
  return query.orderBy('created_at').orderBy('id').limit(limit).execute();
}

/** The member's likes in post id order (likes_user_post_idx; post ids grow with time). */
export function likesPage(db: Db, userId: string, afterPostId: string | null, limit: number) {
  let query = db
    .selectFrom('likes')
    .select(['post_id', 'created_at'])
    .where('user_id', '=', userId);
  if (afterPostId !== null) query = query.where('post_id', '>', afterPostId);
  return query.orderBy('post_id').limit(limit).execute();
}

export function bookmarksPage(db: Db, userId: string, after: TimeKey, limit: number) {
  let query = db
    .selectFrom('bookmarks')
    .select(['post_id', 'created_at'])
    .where('user_id', '=', userId);
  if (after) {
    query = query.where((eb) => eb(eb.refTuple('created_at', 'post_id'), '>', eb.tuple(...after)));
  }
  return query.orderBy('created_at').orderBy('post_id').limit(limit).execute();
}

/** The member's reposts in repost order (reposts_user_idx; their ids grow with time). */
export function repostsPage(db: Db, userId: string, afterId: string | null, limit: number) {
  let query = db
    .selectFrom('reposts')
    .select(['id', 'post_id', 'created_at'])
    .where('user_id', '=', userId);
  if (afterId !== null) query = query.where('id', '>', afterId);
  return query.orderBy('id').limit(limit).execute();
}

/**
 * The member's poll votes in poll id order (poll_voters_user_idx; ids grow with time), each with
 * the options chosen, joined by commas.
 */
export function pollVotesPage(db: Db, userId: string, afterPollId: string | null, limit: number) {
  let query = db
    .selectFrom('poll_voters as pv')
    .innerJoin('polls as p', 'p.id', 'pv.poll_id')
    .select(['pv.poll_id', 'p.post_id', 'pv.voted_at'])
    .where('pv.user_id', '=', userId);
  if (afterPollId !== null) query = query.where('pv.poll_id', '>', afterPollId);
  return query.orderBy('pv.poll_id').limit(limit).execute();
}

/** The options the member chose in `pollIds`. */
export function pollChoicesAmong(db: Db, userId: string, pollIds: readonly string[]) {
  return db
    .selectFrom('poll_votes')
    .select(['poll_id', 'position'])
    .where('user_id', '=', userId)
    .where('poll_id', 'in', [...pollIds])
    .orderBy('poll_id')
    .orderBy('position')
    .execute();
}

/** The member's pinned posts (a handful), oldest pin first. */
export function pinsOf(db: Db, userId: string) {
  return db
    .selectFrom('pinned_posts')
    .select(['post_id', 'pinned_at'])
    .where('user_id', '=', userId)
    .orderBy('pinned_at')
    .orderBy('post_id')
    .execute();
}

/** The members the member follows, in id order (the follows key). */
export function followingPage(db: Db, userId: string, afterId: string | null, limit: number) {
  let query = db
    .selectFrom('follows as f')
    .innerJoin('users as u', 'u.id', 'f.followee_id')
    .select(['f.followee_id as id', 'u.username', 'f.created_at'])
    .where('f.follower_id', '=', userId);
  if (afterId !== null) query = query.where('f.followee_id', '>', afterId);
  return query.orderBy('f.followee_id').limit(limit).execute();
}

/** The members who follow the member, in id order (follows_followee_idx). */
export function followersPage(db: Db, userId: string, afterId: string | null, limit: number) {
  let query = db
    .selectFrom('follows as f')
    .innerJoin('users as u', 'u.id', 'f.follower_id')
    .select(['f.follower_id as id', 'u.username', 'f.created_at'])
    .where('f.followee_id', '=', userId);
  if (afterId !== null) query = query.where('f.follower_id', '>', afterId);
  return query.orderBy('f.follower_id').limit(limit).execute();
}

/** The notifications the member received, oldest first. */
export function notificationsPage(db: Db, userId: string, after: TimeKey, limit: number) {
  let query = db
    .selectFrom('notifications as n')
    .innerJoin('users as a', 'a.id', 'n.actor_id')
    .select([
      'n.id',
      'n.kind',
      'n.actor_id',
      'a.username as actor_username',
      'n.post_id',
      'n.comment_id',
      'n.created_at',
      'n.read_at',
    ])
    .where('n.recipient_id', '=', userId);
  if (after) {
    query = query.where((eb) => eb(eb.refTuple('n.created_at', 'n.id'), '>', eb.tuple(...after)));
  }
  return query.orderBy('n.created_at').orderBy('n.id').limit(limit).execute();
}

/** The distinct images of the member's posts, in URL order. */
export async function postImagesPage(
  db: Db,
  userId: string,
  afterUrl: string | null,
  limit: number,
): Promise<string[]> {
  // Every image of each album has its row in post_media.
  let query = db
    .selectFrom('post_media as pm')
    .innerJoin('posts as p', 'p.id', 'pm.post_id')
    .select('pm.url')
    .distinct()
    .where('p.user_id', '=', userId);
  if (afterUrl !== null) query = query.where('pm.url', '>', afterUrl);
  const rows = await query.orderBy('pm.url').limit(limit).execute();
  return rows.map((row) => row.url);
}
