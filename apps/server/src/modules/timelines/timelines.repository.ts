import { sql, type Kysely } from 'kysely';
import { compiledCommand, compiledQuery } from '../../platform/db/compiled';
import { idList, idListValue, isPostgres, withRowLock } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

/**
 * Post ids are ULIDs minted from the post's creation time (lib/ids), and so are repost ids: an
 * entry's id (its post's, or the repost's that brought it) orders Home by the time the post came
 * into it, and a page is one range of the timeline's primary key (migration 0031).
 */

/** An entry of a page: the post, and the repost that brought it when one did. */
export interface EntryRow {
  id: string;
  entry_id: string;
  reposted_by: string | null;
}

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
      .select(['post_id as id', 'entry_id', 'reposted_by'])
      .where('user_id', '=', userId)
      .where('entry_id', '<', beforeId);
    return (
      hiding
        ? page
            .where('author_id', 'not in', idList(db, hidden))
            .where((eb) =>
              eb.or([
                eb('reposted_by', 'is', null),
                eb('reposted_by', 'not in', idList(db, hidden)),
              ]),
            )
        : page
    )
      .orderBy('entry_id', 'desc')
      .limit(limit);
  });
const fullPage = timelinePage(false);
const filteredPage = timelinePage(true);

/**
 * A page of the timeline below the entry id `beforeId`, newest first, leaving out the posts of
 * `hidden` authors and reposters (blocked either way with the member, or muted: modules/safety).
 */
export function pageOfTimeline(
  db: Db,
  userId: string,
  beforeId: string,
  limit: number,
  hidden: readonly string[],
): Promise<EntryRow[]> {
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
    .columns(['user_id', 'entry_id', 'post_id', 'author_id'])
    .expression((eb) =>
      eb
        .selectFrom('posts as p')
        .select([eb.val(userId).as('user_id'), 'p.id as entry_id', 'p.id', 'p.user_id'])
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
    .select('entry_id')
    .where('user_id', '=', userId)
    .orderBy('entry_id', 'desc')
    .limit(1)
    .offset(rank - 1)
    .executeTakeFirst();
  return row?.entry_id;
}

export async function newestEntry(db: Db, userId: string): Promise<string | undefined> {
  return entryAtRank(db, userId, 1);
}

export async function deleteEntriesBelow(db: Db, userId: string, postId: string): Promise<number> {
  const result = await db
    .deleteFrom('home_timeline_entries')
    .where('user_id', '=', userId)
    .where('entry_id', '<', postId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Adds the post to the author's own timeline, when they have one. */
const ownTimelineInsert = compiledCommand((db: Db, authorId: string, postId: string) =>
  db
    .insertInto('home_timeline_entries')
    .columns(['user_id', 'entry_id', 'post_id', 'author_id'])
    .expression((eb) =>
      eb
        .selectFrom('home_timelines as h')
        .select([
          'h.user_id',
          eb.val(postId).as('entry_id'),
          eb.val(postId).as('post_id'),
          eb.val(authorId).as('author_id'),
        ])
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
    insert into home_timeline_entries (user_id, entry_id, post_id, author_id)
    select r.user_id, r.id, r.id, r.author_id
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
    insert into home_timeline_entries (user_id, entry_id, post_id, author_id)
    select r.user_id, p.id, p.id, p.user_id
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
    .columns(['user_id', 'entry_id', 'post_id', 'author_id'])
    .expression((eb) =>
      eb
        .selectFrom('home_timelines as h')
        .innerJoin('posts as p', (join) => join.on('p.user_id', '=', authorId))
        .select(['h.user_id', 'p.id as entry_id', 'p.id', 'p.user_id as author_id'])
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

/** The members `userId` follows, and `userId`: whose posts and reposts their Home shows. */
function followedOrSelf(userId: string) {
  return sql<string>`(select followee_id from follows where follower_id = ${userId} union all select ${userId})`;
}

/**
 * The newest repost of the entry's post by a member its timeline's owner follows (or by the
 * owner), within an update of `home_timeline_entries`.
 */
const newestFollowedRepost = sql<string | null>`(select max(r.id) from reposts r
  where r.post_id = home_timeline_entries.post_id
    and r.user_id in (select f.followee_id from follows f
                      where f.follower_id = home_timeline_entries.user_id
                      union all select home_timeline_entries.user_id))`;

/**
 * Entries brought by `reposterId`'s reposts (of `postId`, in `userId`'s timeline, or anywhere)
 * that these no longer bring (undone, the reposter unfollowed or gone): each moves to the newest
 * repost of its post by someone its owner still follows, or back to the post's own place when
 * its owner follows the author (or wrote it); the others leave.
 */
async function resettleReposts(
  db: Db,
  reposterId: string,
  scope: { postId: string } | { userId: string } | null,
): Promise<void> {
  const within =
    scope === null
      ? sql`true`
      : 'postId' in scope
        ? sql`post_id = ${scope.postId}`
        : sql`user_id = ${scope.userId}`;
  await sql`
    delete from home_timeline_entries
    where ${within} and reposted_by = ${reposterId}
      and ${newestFollowedRepost} is null and author_id <> user_id
      and not exists (select 1 from follows f
                      where f.follower_id = home_timeline_entries.user_id
                        and f.followee_id = home_timeline_entries.author_id)`.execute(db);
  await sql`
    update home_timeline_entries
    set entry_id = coalesce(${newestFollowedRepost}, post_id),
        reposted_by = (select r2.user_id from reposts r2 where r2.id = ${newestFollowedRepost})
    where ${within} and reposted_by = ${reposterId}`.execute(db);
}

/** The member went: the entries their reposts brought settle again (see resettleReposts). */
export async function withdrawRepostsOf(db: Db, reposterId: string): Promise<void> {
  await resettleReposts(db, reposterId, null);
}

/**
 * The member unfollowed `authorId`: the author's posts leave their timeline, but those a member
 * still followed reposted; posts the author reposted leave it too, but those still brought by
 * another repost or by their author.
 */
export async function removeAuthor(db: Db, userId: string, authorId: string): Promise<void> {
  await db
    .deleteFrom('home_timeline_entries')
    .where('user_id', '=', userId)
    .where('author_id', '=', authorId)
    .where('reposted_by', 'is', null)
    .execute();
  await resettleReposts(db, authorId, { userId });
}

/** Removes entries of authors and reposters the member no longer follows (after a race with an unfollow). */
export async function removeUnfollowed(db: Db, userId: string): Promise<void> {
  await db
    .deleteFrom('home_timeline_entries')
    .where('user_id', '=', userId)
    .where('author_id', 'not in', followedOrSelf(userId))
    .where((eb) =>
      eb.or([eb('reposted_by', 'is', null), eb('reposted_by', 'not in', followedOrSelf(userId))]),
    )
    .execute();
}

/** A repost as the timelines consumer writes it into Home. */
export interface RepostEntry {
  repostId: string;
  postId: string;
  reposterId: string;
}

/**
 * Brings the reposted post into `timelines` (a select of user ids and floors), as the entry
 * `repostId` by `reposterId`: a post already there moves up to it, unless a newer repost put it
 * higher; the post's author is left out (they are told by a notification), and so is a timeline
 * whose floor is above the repost. A post deleted meanwhile writes nothing.
 */
async function upsertRepost(db: Db, repost: RepostEntry, timelines: ReturnType<typeof sql>) {
  await sql`
    insert into home_timeline_entries (user_id, entry_id, post_id, author_id, reposted_by)
    select h.user_id, ${repost.repostId}, p.id, p.user_id, ${repost.reposterId}
    from posts p cross join (${timelines}) h
    where p.id = ${repost.postId} and h.user_id <> p.user_id and ${repost.repostId} >= h.floor
    on conflict (user_id, post_id) do update
      set entry_id = excluded.entry_id, reposted_by = excluded.reposted_by
      where excluded.entry_id > home_timeline_entries.entry_id`.execute(db);
}

/** A repost joins the timelines of the reposter's followers who keep one, and the reposter's. */
export async function fanOutRepost(db: Db, repost: RepostEntry): Promise<void> {
  await upsertRepost(
    db,
    repost,
    sql`select h.user_id, h.floor from home_timelines h
        where exists (select 1 from follows f
                      where f.follower_id = h.user_id and f.followee_id = ${repost.reposterId})
        union all
        select h.user_id, h.floor from home_timelines h where h.user_id = ${repost.reposterId}`,
  );
}

/** A repost joins only the reposter's own timeline (a reposter read on demand). */
export async function addRepostToOwnTimeline(db: Db, repost: RepostEntry): Promise<void> {
  await upsertRepost(
    db,
    repost,
    sql`select h.user_id, h.floor from home_timelines h where h.user_id = ${repost.reposterId}`,
  );
}

/** A repost was undone: the entries it brought settle again (see resettleReposts). */
export async function withdrawRepost(db: Db, postId: string, reposterId: string): Promise<void> {
  await resettleReposts(db, reposterId, { postId });
}

/**
 * Writes the newest reposts by the members `userId` follows (or by `reposterId` alone), newer
 * than `afterId`, into their timeline: the newest repost of each post, at most `limit` posts.
 */
export async function fillReposts(
  db: Db,
  userId: string,
  limit: number,
  afterId: string,
  reposterId: string | null = null,
): Promise<void> {
  const reposters = reposterId === null ? followedOrSelf(userId) : sql`(${reposterId})`;
  await sql`
    insert into home_timeline_entries (user_id, entry_id, post_id, author_id, reposted_by)
    select h.user_id, r.id, r.post_id, p.user_id, r.user_id
    from home_timelines h cross join reposts r cross join posts p
    where h.user_id = ${userId} and p.id = r.post_id and p.user_id <> h.user_id
      and r.id >= h.floor
      and r.id in (select max(r2.id) from reposts r2
                   where r2.user_id in ${reposters} and r2.id > ${afterId}
                     and r2.id >= (select floor from home_timelines where user_id = ${userId})
                   group by r2.post_id)
    order by r.id desc
    limit ${limit}
    on conflict (user_id, post_id) do update
      set entry_id = excluded.entry_id, reposted_by = excluded.reposted_by
      where excluded.entry_id > home_timeline_entries.entry_id`.execute(db);
}
