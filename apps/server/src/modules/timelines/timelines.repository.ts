import { sql, type Kysely } from 'kysely';
import { compiledCommand, compiledQuery } from '../../platform/db/compiled';
import { idList, idListValue, isPostgres, withRowLock } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

/**
 * Post ids are ULIDs minted from the post's creation time (lib/ids), so ordering entries by post
 * id is ordering Home by (created_at, id): a page is one range of the timeline's primary key.
 */

export interface TimelineState {
  floor: string;
  read_at: number;
}

export interface RankedEntry {
  id: string;
  author_id: string;
  like_count: number;
  created_at: number;
}

/**
 * An id above every post id (ULIDs are 26 characters of 0-9 and A-Z, so this sorts after them
 * under any collation): where a first page starts.
 */
export const TOP = 'Z'.repeat(26);

export function findTimeline(db: Db, userId: string): Promise<TimelineState | undefined> {
  return db
    .selectFrom('home_timelines')
    .select(['floor', 'read_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

const timelinePage = (hiding: boolean) =>
  compiledQuery((db: Db, userId: string, beforeId: string, limit: number, hidden: unknown) => {
    const page = db
      .selectFrom('home_timeline_entries')
      .select('post_id as id')
      .where('user_id', '=', userId)
      .where('post_id', '<', beforeId);
    return (hiding ? page.where('author_id', 'not in', idList(db, hidden)) : page)
      .orderBy('post_id', 'desc')
      .limit(limit);
  });
const fullPage = timelinePage(false);
const filteredPage = timelinePage(true);

/**
 * A page of the timeline below `beforeId`, newest first, leaving out the posts of `hidden`
 * authors (those blocked either way with the member, or muted: see modules/safety).
 */
export function pageOfTimeline(
  db: Db,
  userId: string,
  beforeId: string,
  limit: number,
  hidden: readonly string[],
): Promise<{ id: string }[]> {
  return (hidden.length > 0 ? filteredPage : fullPage)(
    db,
    userId,
    beforeId,
    limit,
    idListValue(db, hidden),
  );
}

/** Every post of the timeline with what trending orders by. */
export const rankedEntries = compiledQuery((db: Db, userId: string) =>
  db
    .selectFrom('home_timeline_entries as e')
    .innerJoin('posts as p', 'p.id', 'e.post_id')
    .select(['e.post_id as id', 'e.author_id', 'p.like_count', 'p.created_at'])
    .where('e.user_id', '=', userId),
);

/** Starts a member's timeline; false when it already exists. */
export async function createTimeline(db: Db, userId: string, now: number): Promise<boolean> {
  const result = await db
    .insertInto('home_timelines')
    .values({ user_id: userId, read_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export async function touchTimeline(db: Db, userId: string, now: number): Promise<void> {
  await db
    .updateTable('home_timelines')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .execute();
}

/** Drops the timelines nobody read since `before` (their entries go with them). */
export async function dropTimelinesReadBefore(db: Db, before: number): Promise<number> {
  const result = await db
    .deleteFrom('home_timelines')
    .where('read_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Raises the floor (it never goes down: entries are complete only above the highest one). */
export async function raiseFloor(db: Db, userId: string, floor: string): Promise<void> {
  await db
    .updateTable('home_timelines')
    .set({ floor })
    .where('user_id', '=', userId)
    .where('floor', '<', floor)
    .execute();
}

/**
 * Writes the newest `limit` posts of the member's Home (their own and those of everyone they
 * follow) newer than `afterId` into their timeline; answers how many it wrote.
 */
export async function fillFromFollows(
  db: Db,
  userId: string,
  limit: number,
  afterId = '',
): Promise<number> {
  const result = await db
    .insertInto('home_timeline_entries')
    .columns(['user_id', 'post_id', 'author_id'])
    .expression((eb) =>
      eb
        .selectFrom('posts as p')
        .select([eb.val(userId).as('user_id'), 'p.id', 'p.user_id'])
        .where(
          'p.user_id',
          'in',
          sql<string>`(select followee_id from follows where follower_id = ${userId} union all select ${userId})`,
        )
        .where('p.id', '>', afterId)
        .orderBy('p.created_at', 'desc')
        .orderBy('p.id', 'desc')
        .limit(limit),
    )
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}

/** The `rank`-th newest entry (1 is the newest), if the timeline holds that many. */
export async function entryAtRank(
  db: Db,
  userId: string,
  rank: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('home_timeline_entries')
    .select('post_id')
    .where('user_id', '=', userId)
    .orderBy('post_id', 'desc')
    .limit(1)
    .offset(rank - 1)
    .executeTakeFirst();
  return row?.post_id;
}

export async function newestEntry(db: Db, userId: string): Promise<string | undefined> {
  return entryAtRank(db, userId, 1);
}

export async function deleteEntriesBelow(db: Db, userId: string, postId: string): Promise<number> {
  const result = await db
    .deleteFrom('home_timeline_entries')
    .where('user_id', '=', userId)
    .where('post_id', '<', postId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Adds the post to the author's own timeline, when they have one. */
const ownTimelineInsert = compiledCommand((db: Db, authorId: string, postId: string) =>
  db
    .insertInto('home_timeline_entries')
    .columns(['user_id', 'post_id', 'author_id'])
    .expression((eb) =>
      eb
        .selectFrom('home_timelines as h')
        .select(['h.user_id', eb.val(postId).as('post_id'), eb.val(authorId).as('author_id')])
        .where('h.user_id', '=', authorId),
    )
    .onConflict((oc) => oc.doNothing()),
);

export async function addToOwnTimeline(db: Db, authorId: string, postId: string): Promise<void> {
  await ownTimelineInsert(db, authorId, postId);
}

/**
 * Writes new posts into the timelines of their authors' followers who keep one (and their
 * authors' own), in one statement for a consumer's batch: a post costs its rows, not a round
 * trip. A post deleted meanwhile writes nothing. It walks each author's followers; for an author
 * followed by more members than keep a timeline, fanOutPostViaTimelines walks fewer rows.
 */
export async function fanOutPosts(db: Db, postIds: readonly string[]): Promise<void> {
  if (postIds.length === 0) return;
  const ids = idList(db, idListValue(db, postIds));
  // The order of the joins forces the plan on SQLite.
  await sql`
    insert into home_timeline_entries (user_id, post_id, author_id)
    select r.user_id, r.id, r.author_id
    from (
      select h.user_id, h.floor, p.id, p.user_id as author_id
      from posts p cross join follows f cross join home_timelines h
      where p.id in ${ids} and f.followee_id = p.user_id and h.user_id = f.follower_id
      union all
      select h.user_id, h.floor, p.id, p.user_id
      from posts p cross join home_timelines h
      where p.id in ${ids} and h.user_id = p.user_id
    ) r
    where r.id >= r.floor
    on conflict do nothing`.execute(db);
}

/** fanOutPosts for one post, walking the kept timelines (see there). */
export async function fanOutPostViaTimelines(
  db: Db,
  post: { id: string; authorId: string },
): Promise<void> {
  await sql`
    insert into home_timeline_entries (user_id, post_id, author_id)
    select r.user_id, p.id, p.user_id
    from posts p cross join (
      select h.user_id, h.floor from home_timelines h
      where exists (select 1 from follows f
                    where f.follower_id = h.user_id and f.followee_id = ${post.authorId})
      union all
      select h.user_id, h.floor from home_timelines h where h.user_id = ${post.authorId}
    ) r
    where p.id = ${post.id} and p.user_id = ${post.authorId} and p.id >= r.floor
    on conflict do nothing`.execute(db);
}

/** Each author's followers count (authors missing from the answer are gone). */
export async function followersCountsOf(
  db: Db,
  userIds: readonly string[],
): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'followers_count'])
    .where('id', 'in', idList(db, idListValue(db, userIds)))
    .execute();
  return new Map(rows.map((row) => [row.id, row.followers_count]));
}

/** How many members keep a timeline. */
export async function countTimelines(db: Db): Promise<number> {
  const row = await db
    .selectFrom('home_timelines')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The timelines, a slice at a time in user id order (for trimming each). */
export async function listTimelineOwners(
  db: Db,
  afterUserId: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('home_timelines')
    .select('user_id')
    .where('user_id', '>', afterUserId)
    .orderBy('user_id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.user_id);
}

/**
 * Writes the newest `limit` posts of `authorId` at or above the floor into the member's timeline
 * (after a follow).
 */
export async function backfillAuthor(
  db: Db,
  userId: string,
  authorId: string,
  limit: number,
): Promise<void> {
  await db
    .insertInto('home_timeline_entries')
    .columns(['user_id', 'post_id', 'author_id'])
    .expression((eb) =>
      eb
        .selectFrom('home_timelines as h')
        .innerJoin('posts as p', (join) => join.on('p.user_id', '=', authorId))
        .select(['h.user_id', 'p.id', 'p.user_id as author_id'])
        .where('h.user_id', '=', userId)
        .whereRef('p.id', '>=', 'h.floor')
        .orderBy('p.created_at', 'desc')
        .orderBy('p.id', 'desc')
        .limit(limit),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * PostgreSQL: holds (FOR KEY SHARE, the lock a foreign key's check takes) the posts a batch of the
 * timelines consumer may point entries at, `postIds` and the newest `limit` of each of
 * `authorIds`' posts, before it deletes entries: a post's deletion, which takes its row before
 * the entries pointing at it, then never waits for an entry this batch holds while the batch
 * waits for that post (see "Lock order" in docs/architecture.md). SQLite needs nothing.
 */
export async function holdPostsToPointAt(
  db: Db,
  postIds: readonly string[],
  authorIds: readonly string[],
  limit: number,
): Promise<void> {
  if (!isPostgres(db)) return;
  if (postIds.length > 0) {
    const named = db
      .selectFrom('posts')
      .select('id')
      .where('id', 'in', idList(db, idListValue(db, postIds)))
      .orderBy('id');
    await withRowLock(db, named, (q) => q.forKeyShare()).execute();
  }
  for (const authorId of authorIds) {
    const newest = db
      .selectFrom('posts')
      .select('id')
      .where('user_id', '=', authorId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit);
    await withRowLock(db, newest, (q) => q.forKeyShare()).execute();
  }
}

/** The `rank`-th newest post of the author (1 is the newest), if they wrote that many. */
export async function authorPostAtRank(
  db: Db,
  authorId: string,
  rank: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('posts')
    .select('id')
    .where('user_id', '=', authorId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .offset(rank - 1)
    .executeTakeFirst();
  return row?.id;
}

export async function removeAuthor(db: Db, userId: string, authorId: string): Promise<void> {
  await db
    .deleteFrom('home_timeline_entries')
    .where('user_id', '=', userId)
    .where('author_id', '=', authorId)
    .execute();
}

/** Removes entries of authors the member no longer follows (after a race with an unfollow). */
export async function removeUnfollowed(db: Db, userId: string): Promise<void> {
  await db
    .deleteFrom('home_timeline_entries')
    .where('user_id', '=', userId)
    .where('author_id', '<>', userId)
    .where('author_id', 'not in', (eb) =>
      eb.selectFrom('follows').select('followee_id').where('follower_id', '=', userId),
    )
    .execute();
}
