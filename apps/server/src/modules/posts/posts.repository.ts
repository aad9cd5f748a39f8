import type { PostSort } from '@perch/contract';
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { compiledQuery, compiledShapes } from '../../platform/db/compiled';
import {
  idList,
  idListValue,
  indexedBy,
  rowidOf,
  rowidsOf,
  withRowLock,
} from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;
type PostsEb = ExpressionBuilder<Database & { p: Database['posts'] }, 'p'>;

/** A post's own columns: what a card shows but its author. */
export interface PostRecord {
  id: string;
  user_id: string;
  content: string;
  entities: string | null;
  media_url: string | null;
  media_alt: string | null;
  content_warning: string | null;
  /** 1 (or true) when the images are sensitive. */
  sensitive: unknown;
  /** The preview card the post shows, as JSON; null for none. */
  preview_card: string | null;
  /** The post's poll as its card shows it, as JSON (see modules/polls); null for none. */
  poll: string | null;
  /** The post's images in order, as JSON (see album.ts); null for none. */
  media: string | null;
  like_count: number;
  comment_count: number;
  repost_count: number;
  created_at: number;
  updated_at: number;
  /** Whether its author pinned it (see pinnedFlag): 0/1 on SQLite, a boolean on PostgreSQL. */
  pinned: unknown;
  /** The post it quotes (perhaps deleted since); null for none. */
  quote_id: string | null;
}

/** A post with its author and the viewer's states: everything a card shows. */
export interface PostCardRow extends PostRecord {
  username: string;
  first_name: string;
  last_name: string;
  avatar_url: string | null;
  liked: unknown;
  bookmarked: unknown;
  reposted: unknown;
}

/** Which posts a list holds. Bookmarks have their own query: they sort by bookmark time. */
export type PostFilter =
  | { kind: 'all' }
  | { kind: 'author'; userId: string }
  | { kind: 'home'; viewerId: string }
  | { kind: 'explore'; viewerId: string }
  /** Explore's posts, found from the authors the viewer does not follow (see PostsService). */
  | { kind: 'unfollowed'; viewerId: string }
  | { kind: 'liked'; viewerId: string };

/** Keyset position: [created_at, id] for latest/oldest, [like_count, created_at, id] for trending. */
export type PostKeyset = readonly [number, string] | readonly [number, number, string];

export interface PostListQuery {
  viewerId: string | null;
  filter: PostFilter;
  sort: PostSort;
  after: PostKeyset | null;
  limit: number;
  /** Only posts created at or after this time (ms); narrows the scan of a time-ordered list. */
  since?: number | null;
  /** Authors left out: those blocked either way with the viewer, or muted (see modules/safety). */
  hidden: readonly string[];
}

const POST_COLUMNS = [
  'p.id',
  'p.user_id',
  'p.content',
  'p.entities',
  'p.media_url',
  'p.media_alt',
  'p.content_warning',
  'p.sensitive',
  'p.preview_card',
  'p.poll',
  'p.media',
  'p.like_count',
  'p.comment_count',
  'p.repost_count',
  'p.created_at',
  'p.updated_at',
  'p.quote_id',
] as const;

const CARD_COLUMNS = [
  ...POST_COLUMNS,
  'u.username',
  'u.first_name',
  'u.last_name',
  'u.avatar_url',
] as const;

/**
 * Whether the author pinned the post `p`: a probe of pinned_posts' key (member, post), which
 * holds a handful of rows a member.
 */
function pinnedFlag(eb: PostsEb) {
  return eb
    .exists(
      eb
        .selectFrom('pinned_posts as pp')
        .select('pp.post_id')
        .whereRef('pp.user_id', '=', 'p.user_id')
        .whereRef('pp.post_id', '=', 'p.id'),
    )
    .as('pinned');
}

/**
 * Whether the member liked the post `p`. The like is looked up in the member's own likes
 * (`likes_user_post_idx`), not under the post (the primary key, which SQLite otherwise picks): a
 * reader's likes lie on a few pages that stay in memory while they read, a post's on a page of
 * their own (on 1,000,000 posts, 6–8 µs a post against 26–39).
 */
function likedFlag(db: Db, eb: PostsEb, viewerId: string) {
  return sql<boolean>`exists (select 1 from likes ${indexedBy(db, 'likes_user_post_idx')}
    where likes.user_id = ${viewerId} and likes.post_id = ${eb.ref('p.id')})`.as('liked');
}

/** Whether the member bookmarked the post `p`. */
function bookmarkedFlag(eb: PostsEb, viewerId: string) {
  return eb
    .exists(
      eb
        .selectFrom('bookmarks')
        .select('bookmarks.post_id')
        .where('bookmarks.user_id', '=', viewerId)
        .whereRef('bookmarks.post_id', '=', 'p.id'),
    )
    .as('bookmarked');
}

/** Whether the member reposted the post `p` (reposts' unique (post, member) index). */
function repostedFlag(eb: PostsEb, viewerId: string) {
  return eb
    .exists(
      eb
        .selectFrom('reposts')
        .select('reposts.post_id')
        .whereRef('reposts.post_id', '=', 'p.id')
        .where('reposts.user_id', '=', viewerId),
    )
    .as('reposted');
}

/** Whether the member liked, bookmarked and reposted the post `p`. */
function viewerFlags(db: Db, eb: PostsEb, viewerId: string) {
  return [likedFlag(db, eb, viewerId), bookmarkedFlag(eb, viewerId), repostedFlag(eb, viewerId)];
}

const UNFLAGGED = [
  sql<boolean>`0`.as('liked'),
  sql<boolean>`0`.as('bookmarked'),
  sql<boolean>`0`.as('reposted'),
];

function cardQuery(db: Db, viewerId: string | null) {
  return db
    .selectFrom('posts as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(CARD_COLUMNS)
    .select(pinnedFlag)
    .select((eb) => (viewerId === null ? UNFLAGGED : viewerFlags(db, eb, viewerId)));
}

/**
 * The posts in `ids` (see idListValue) that exist, without their authors: the card cache takes
 * those from the cached member summaries rather than looking each one up again.
 */
export const postsAmong = compiledQuery((db: Db, ids: unknown) =>
  db
    .selectFrom('posts as p')
    .select(POST_COLUMNS)
    .select(pinnedFlag)
    .where('p.id', 'in', idList(db, ids)),
);

/**
 * The posts at `rows` (SQLite rowids, see idListValue), as postsAmong: a row taken since by
 * another post is the caller's to leave out.
 */
export const postsAtRows = compiledQuery((db: Db, rows: unknown) =>
  db
    .selectFrom('posts as p')
    .select(POST_COLUMNS)
    .select(pinnedFlag)
    .where(sql<boolean>`${rowidOf(db, 'p')} in ${idList(db, rows)}`),
);

function followeesOf(eb: PostsEb, viewerId: string) {
  return eb
    .selectFrom('follows')
    .select('follows.followee_id')
    .where('follows.follower_id', '=', viewerId);
}

function filterCondition(eb: PostsEb, filter: PostFilter) {
  switch (filter.kind) {
    case 'all':
      return eb.lit(true);
    case 'author':
      return eb('p.user_id', '=', filter.userId);
    case 'home':
      // One IN list (followees plus the viewer) lets the planner seek each author's posts on
      // posts_user_*_idx; an OR of two conditions would make it scan every post instead.
      return eb(
        'p.user_id',
        'in',
        sql<string>`(select followee_id from follows where follower_id = ${filter.viewerId} union all select ${filter.viewerId})`,
      );
    case 'explore':
      return eb.and([
        eb('p.user_id', '<>', filter.viewerId),
        eb('p.user_id', 'not in', followeesOf(eb, filter.viewerId)),
      ]);
    case 'unfollowed':
      // The same posts as explore, sought author by author on posts_user_*_idx.
      return eb(
        'p.user_id',
        'in',
        eb
          .selectFrom('users as u')
          .select('u.id')
          .where('u.id', '<>', filter.viewerId)
          .where('u.id', 'not in', followeesOf(eb, filter.viewerId)),
      );
    case 'liked':
      // Driven by the member's likes (likes_user_idx), not by a scan of every post.
      return eb(
        'p.id',
        'in',
        eb.selectFrom('likes').select('likes.post_id').where('likes.user_id', '=', filter.viewerId),
      );
  }
}

function keysetCondition(eb: PostsEb, sort: PostSort, after: PostKeyset) {
  if (sort === 'trending' && after.length === 3) {
    return eb(eb.refTuple('p.like_count', 'p.created_at', 'p.id'), '<', eb.tuple(...after));
  }
  if (after.length === 2) {
    const direction = sort === 'oldest' ? '>' : '<';
    return eb(eb.refTuple('p.created_at', 'p.id'), direction, eb.tuple(...after));
  }
  return eb.lit(false);
}

type KeyArgs = [
  subject: string,
  k1: number,
  k2: number,
  k3: string,
  since: number,
  limit: number,
  hidden: unknown,
];
type KeyQuery = (db: Db, ...args: KeyArgs) => Promise<{ id: string; row: number | null }[]>;

interface KeyShape {
  kind: PostFilter['kind'];
  sort: PostSort;
  paged: boolean;
  windowed: boolean;
  /** Leaves out the authors of a list (see idListValue); only viewers who hide someone need it. */
  hiding: boolean;
}

/** The filter with the query's subject (the viewer or the author) as a value. */
function filterOf(kind: PostFilter['kind'], subject: string): PostFilter {
  return kind === 'all'
    ? { kind }
    : kind === 'author'
      ? { kind, userId: subject }
      : { kind, viewerId: subject };
}

/**
 * A page of the member's liked posts in creation order, read from their likes alone. Post ids are
 * ULIDs minted from the post's creation time (see lib/ids), so ordering and paging by post id is
 * ordering by (created_at, id) without looking up every liked post.
 */
function likedKeysInCreationOrder(
  db: Db,
  shape: KeyShape,
  ...[viewerId, , , afterId, , limit]: KeyArgs
) {
  const direction = shape.sort === 'oldest' ? 'asc' : 'desc';
  const keys = db
    .selectFrom('likes')
    .select(['likes.post_id as id', sql<null>`null`.as('row')])
    .where('likes.user_id', '=', viewerId);
  return (
    shape.paged ? keys.where('likes.post_id', direction === 'asc' ? '>' : '<', afterId) : keys
  )
    .orderBy('likes.post_id', direction)
    .limit(limit);
}

function postKeys(
  db: Db,
  shape: KeyShape,
  ...[subject, k1, k2, k3, since, limit, hidden]: KeyArgs
) {
  const { sort } = shape;
  const direction = sort === 'oldest' ? 'asc' : 'desc';
  let keys = db
    .selectFrom('posts as p')
    .select(['p.id', rowidOf(db, 'p').as('row')])
    .where((eb) => filterCondition(eb, filterOf(shape.kind, subject)));
  if (shape.paged) {
    const after: PostKeyset = sort === 'trending' ? [k1, k2, k3] : [k2, k3];
    keys = keys.where((eb) => keysetCondition(eb, sort, after));
  }
  if (shape.windowed) keys = keys.where('p.created_at', '>=', since);
  if (shape.hiding) keys = keys.where('p.user_id', 'not in', idList(db, hidden));
  if (sort === 'trending') keys = keys.orderBy('p.like_count', 'desc');
  return keys.orderBy('p.created_at', direction).orderBy('p.id', direction).limit(limit);
}

// Each shape of the keys query is built and compiled once (see compiledQuery).
const keyQueries = new Map<string, KeyQuery>();

function keyQueryOf(shape: KeyShape): KeyQuery {
  const name = `${shape.kind}:${shape.sort}:${String(shape.paged)}:${String(shape.windowed)}:${String(shape.hiding)}`;
  let query = keyQueries.get(name);
  if (!query) {
    query = compiledQuery((db: Db, ...args: KeyArgs) =>
      // Likes alone do not name the author: a viewer who hides someone reads through posts.
      shape.kind === 'liked' && shape.sort !== 'trending' && !shape.hiding
        ? likedKeysInCreationOrder(db, shape, ...args)
        : postKeys(db, shape, ...args),
    );
    keyQueries.set(name, query);
  }
  return query;
}

/** A page of post ids, and on SQLite their rowids, which find the rows the card cache lacks. */
export interface PostKeys {
  ids: string[];
  rows: number[] | null;
}

/**
 * The ids of one page of a list (limit + 1 of them, to tell whether more follow), found on narrow
 * indexes alone; the cards come from the card cache.
 */
export async function listPostKeys(db: Db, query: PostListQuery): Promise<PostKeys> {
  const { filter, sort, after } = query;
  const subject =
    filter.kind === 'all' ? '' : filter.kind === 'author' ? filter.userId : filter.viewerId;
  const shape = {
    kind: filter.kind,
    sort,
    paged: after !== null,
    windowed: query.since != null,
    hiding: query.hidden.length > 0,
  };
  const [k1, k2, k3] =
    after === null ? [0, 0, ''] : after.length === 3 ? after : [0, after[0], after[1]];
  const rows = await keyQueryOf(shape)(
    db,
    subject,
    k1,
    k2,
    k3,
    query.since ?? 0,
    query.limit + 1,
    idListValue(db, query.hidden),
  );
  return { ids: rows.map((row) => row.id), rows: rowidsOf(rows) };
}

/** A page of a member's posts in time order, read with their cards' columns. */
export interface AuthorPostsQuery {
  userId: string;
  sort: 'latest' | 'oldest';
  after: readonly [number, string] | null;
  limit: number;
}

function authorPostRowsOf(sort: AuthorPostsQuery['sort'], paged: boolean) {
  const direction = sort === 'oldest' ? 'asc' : 'desc';
  return compiledQuery(
    (db: Db, userId: string, afterAt: number, afterId: string, limit: number) => {
      const rows = db
        .selectFrom('posts as p')
        .select(POST_COLUMNS)
        .select(pinnedFlag)
        .where('p.user_id', '=', userId);
      return (paged ? rows.where((eb) => keysetCondition(eb, sort, [afterAt, afterId])) : rows)
        .orderBy('p.created_at', direction)
        .orderBy('p.id', direction)
        .limit(limit);
    },
  );
}

// Each shape, first page or a later one, is built and compiled once (see compiledQuery).
const authorPostQueries = {
  latest: [authorPostRowsOf('latest', false), authorPostRowsOf('latest', true)],
  oldest: [authorPostRowsOf('oldest', false), authorPostRowsOf('oldest', true)],
} as const;

/**
 * One page of a member's posts with every column of their cards (limit + 1 rows, to tell whether
 * more follow). On SQLite, posts_user_card_idx holds those columns in each member's order
 * (migration 0019): the page is read from a few adjacent pages of that index instead of one page
 * of the table per post.
 */
export async function authorPostRows(db: Db, query: AuthorPostsQuery): Promise<PostRecord[]> {
  const rows = authorPostQueries[query.sort][query.after === null ? 0 : 1];
  const [afterAt, afterId] = query.after ?? [0, ''];
  return rows(db, query.userId, afterAt, afterId, query.limit + 1);
}

/** Of the posts in `ids` (see idListValue), those the member liked, bookmarked or reposted. */
export const flagsAmong = compiledQuery((db: Db, userId: string, ids: unknown) =>
  db
    .selectFrom('posts as p')
    .select('p.id')
    .select((eb) => viewerFlags(db, eb, userId))
    .where('p.id', 'in', idList(db, ids)),
);

const bookmarkKeys = compiledShapes(
  (
    { paged, hiding }: { paged: boolean; hiding: boolean },
    db: Db,
    userId: string,
    afterAt: number,
    afterId: string,
    limit: number,
    hidden: unknown,
  ) => {
    let keys = db
      .selectFrom('bookmarks as b')
      .select(['b.post_id as id', 'b.created_at as bookmarked_at'])
      .where('b.user_id', '=', userId);
    if (hiding) {
      keys = keys.where('b.post_id', 'not in', (eb) =>
        eb.selectFrom('posts as hp').select('hp.id').where('hp.user_id', 'in', idList(db, hidden)),
      );
    }
    return (
      paged
        ? keys.where((eb) =>
            eb(eb.refTuple('b.created_at', 'b.post_id'), '<', eb.tuple(afterAt, afterId)),
          )
        : keys
    )
      .orderBy('b.created_at', 'desc')
      .orderBy('b.post_id', 'desc')
      .limit(limit);
  },
);

/**
 * The ids of a page of the member's bookmarked posts, newest bookmark first (limit + 1, to tell
 * whether more follow); keyset [bookmark created_at, post id].
 */
export function listBookmarkKeys(
  db: Db,
  query: {
    viewerId: string;
    after: readonly [number, string] | null;
    limit: number;
    /** Authors whose posts are left out (see modules/safety). */
    hidden: readonly string[];
  },
): Promise<{ id: string; bookmarked_at: number }[]> {
  const { viewerId, after, limit, hidden } = query;
  const keys = bookmarkKeys({ paged: after !== null, hiding: hidden.length > 0 });
  return keys(db, viewerId, after?.[0] ?? 0, after?.[1] ?? '', limit + 1, idListValue(db, hidden));
}

const postCard = compiledQuery((db: Db, postId: string, viewerId: string) =>
  cardQuery(db, viewerId).where('p.id', '=', postId),
);

export async function findPostCard(
  db: Db,
  postId: string,
  viewerId: string | null,
): Promise<PostCardRow | undefined> {
  if (viewerId === null) return cardQuery(db, null).where('p.id', '=', postId).executeTakeFirst();
  const [row] = await postCard(db, postId, viewerId);
  return row;
}

/** Whether the post exists. */
export function findPostOwner(
  db: Db,
  postId: string,
): Promise<{ id: string; user_id: string; content: string; media_url: string | null } | undefined> {
  return db
    .selectFrom('posts')
    .select(['id', 'user_id', 'content', 'media_url'])
    .where('id', '=', postId)
    .executeTakeFirst();
}

/**
 * Which of the viewer's states on the post a change reads with it: the one its answer shows and the
 * change does not settle (a like settles `liked`, so it reads `bookmarked`), both (a pin settles
 * neither), or none. Each is an index probe of a table of millions of rows. `reposted` is read
 * with either (reposts are few), and settled by the repost's own answer.
 */
export type MarkRead = 'liked' | 'bookmarked' | 'both' | 'none';

/**
 * A post read for a change, with the viewer's mark that was asked for (the other reads false); its
 * author is the caller's to add.
 */
export type LockedPostRow = PostRecord & Pick<PostCardRow, 'liked' | 'bookmarked' | 'reposted'>;

/**
 * Reads a post for a change, holding its row until the transaction ends (SQLite runs one write
 * transaction at a time anyway). Every change to a post or to its likes, comments, votes and
 * bookmarks, and its deletion, takes this lock first, so that changes racing each other or a
 * delete queue up in one order instead of deadlocking; the answer's card is built from this row.
 * PostgreSQL: FOR NO KEY UPDATE, not FOR UPDATE, so that a write holding a member's row may still
 * point a row at the post (a follow filling its timeline) while a deletion waits for that member's
 * row: see "Lock order" in docs/architecture.md.
 */
const lockedRow = compiledShapes(
  ({ mark }: { mark: MarkRead }, db: Db, postId: string, viewerId: string) =>
    withRowLock(
      db,
      db
        .selectFrom('posts as p')
        .select(POST_COLUMNS)
        .select(pinnedFlag)
        .select((eb) => [
          mark === 'liked' || mark === 'both'
            ? likedFlag(db, eb, viewerId)
            : sql<boolean>`0`.as('liked'),
          mark === 'bookmarked' || mark === 'both'
            ? bookmarkedFlag(eb, viewerId)
            : sql<boolean>`0`.as('bookmarked'),
          // A repost settles its own mark; every other change's answer shows it.
          mark === 'none' ? sql<boolean>`0`.as('reposted') : repostedFlag(eb, viewerId),
        ])
        .where('p.id', '=', postId),
      (query) => query.forNoKeyUpdate(),
    ),
);

export async function lockPostForChange(
  db: Db,
  postId: string,
  viewerId: string,
  mark: MarkRead,
): Promise<LockedPostRow | undefined> {
  const [row] = await lockedRow({ mark })(db, postId, viewerId);
  return row;
}

/** Up to `limit` of the posts the member liked (any order). */
export const likedPostIds = compiledQuery((db: Db, userId: string, limit: number) =>
  db.selectFrom('likes').select('post_id').where('user_id', '=', userId).limit(limit),
);

/** Up to `limit` of the posts the member reposted (any order). */
export const repostedPostIds = compiledQuery((db: Db, userId: string, limit: number) =>
  db.selectFrom('reposts').select('post_id').where('user_id', '=', userId).limit(limit),
);

/** Up to `limit` of the posts the member bookmarked (any order). */
export const bookmarkedPostIds = compiledQuery((db: Db, userId: string, limit: number) =>
  db.selectFrom('bookmarks').select('post_id').where('user_id', '=', userId).limit(limit),
);

/** The posts the member pinned, newest pin first (pinned_posts' key: a handful of rows). */
export async function pinnedPostIds(db: Db, userId: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('pinned_posts')
    .select('post_id')
    .where('user_id', '=', userId)
    .orderBy('pinned_at', 'desc')
    .orderBy('post_id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => row.post_id);
}

/** What the card worker reads of a post: its author, its text and the card it shows. */
export interface PostLinkRow {
  id: string;
  user_id: string;
  content: string;
  preview_card: string | null;
}

/**
 * The post, locked for a change of its card as every change of a post is (see lockPostForChange),
 * with what the card worker needs of it; undefined when it is gone.
 */
export function lockPostForCard(db: Db, postId: string): Promise<PostLinkRow | undefined> {
  return withRowLock(
    db,
    db
      .selectFrom('posts as p')
      .select(['p.id', 'p.user_id', 'p.content', 'p.preview_card'])
      .where('p.id', '=', postId),
    (query) => query.forNoKeyUpdate(),
  ).executeTakeFirst();
}

/**
 * The newest reposts by the members `viewerId` follows (and their own) in [fromId, beforeId)
 * (each followee's a range of reposts_user_idx), of posts by others and by authors not `hidden`, reposters not hidden either: Home
 * past what the timeline holds. Several reposts of one post are the caller's to show once.
 */
export function repostsByFollowees(
  db: Db,
  viewerId: string,
  range: { fromId: string; beforeId: string },
  limit: number,
  hidden: readonly string[],
): Promise<{ id: string; post_id: string; user_id: string }[]> {
  let query = db
    .selectFrom('reposts as r')
    .innerJoin('posts as p', 'p.id', 'r.post_id')
    .select(['r.id', 'r.post_id', 'r.user_id'])
    .where(
      'r.user_id',
      'in',
      sql<string>`(select followee_id from follows where follower_id = ${viewerId} union all select ${viewerId})`,
    )
    .where('r.id', '<', range.beforeId)
    .where('r.id', '>=', range.fromId)
    .where('p.user_id', '<>', viewerId);
  if (hidden.length > 0) {
    const named = idList(db, idListValue(db, hidden));
    query = query.where('p.user_id', 'not in', named).where('r.user_id', 'not in', named);
  }
  return query.orderBy('r.id', 'desc').limit(limit).execute();
}

/**
 * The post to be quoted, held until the transaction ends so that it is not deleted meanwhile
 * (PostgreSQL: FOR KEY SHARE, which waits only for a deletion); undefined when it is gone.
 */
export function holdQuotedPost(
  db: Db,
  postId: string,
): Promise<{ id: string; user_id: string } | undefined> {
  return withRowLock(
    db,
    db.selectFrom('posts as p').select(['p.id', 'p.user_id']).where('p.id', '=', postId),
    (query) => query.forKeyShare(),
  ).executeTakeFirst();
}

/** When each of these members last posted (ms); members who never did are left out. */
export async function lastPostTimes(
  db: Db,
  userIds: readonly string[],
): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('posts')
    .select(['user_id', (eb) => eb.fn.max<number | string>('created_at').as('last')])
    .where('user_id', 'in', userIds)
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((row) => [row.user_id, Number(row.last)]));
}
