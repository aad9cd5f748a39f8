import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { compiledQuery, compiledShapes } from '../../platform/db/compiled';
import { idList, idListValue, joinedIds, splitIds, withRowLock } from '../../platform/db/dialect';
import type { Database, MemberRow, NewUser, UserRow } from '../../platform/db/schema';

type Db = Kysely<Database>;

/** A member as listed to a viewer: the row plus whether the viewer follows them. */
export type ListedUserRow = MemberRow & { followed: unknown };

// Lists read many members: the hash (about 100 bytes, never shown) is not read with them.
export const MEMBER_COLUMNS = [
  'u.id',
  'u.username',
  'u.first_name',
  'u.last_name',
  'u.email',
  'u.bio',
  'u.avatar_url',
  'u.followers_count',
  'u.following_count',
  'u.posts_count',
  'u.created_at',
  'u.updated_at',
] as const;

/** How many members there are. */
export async function countMembers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * SQLite: the rowid of the member who registered last. It grows with every registration (a rowid is
 * given only above the largest there is, while that member's row is there).
 */
export const newestMemberRowid = compiledQuery((db: Db) =>
  db.selectFrom('users').select(sql<number | null>`max(rowid)`.as('rowid')),
);

/** How many members the member follows (0 for no such member). */
export const followingCountOf = compiledQuery((db: Db, id: string) =>
  db.selectFrom('users').select('following_count').where('id', '=', id),
);

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Whether the member exists, holding their row until the transaction ends (PostgreSQL: FOR NO KEY
 * UPDATE, the lock a counter update takes: it queues changes between two members, yet lets rows
 * that merely point at the member, such as a notification written meanwhile, through; SQLite runs
 * one write transaction at a time anyway).
 */
export async function lockUser(db: Db, id: string): Promise<boolean> {
  const query = db.selectFrom('users').select('id').where('id', '=', id);
  const row = await withRowLock(db, query, (q) => q.forNoKeyUpdate()).executeTakeFirst();
  return row !== undefined;
}

/** Usernames are matched regardless of case, as the unique index on lower(username) does. */
const idByLowerUsername = compiledQuery((db: Db, lowerUsername: string) =>
  db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(username)`, '=', lowerUsername),
);

/** The member's id, whatever the name's case (the hot path of every member's page). */
export async function findUserIdByUsername(db: Db, username: string): Promise<string | undefined> {
  const [row] = await idByLowerUsername(db, username.toLowerCase());
  return row?.id;
}

/** The members whose lower-cased usernames are among `lowerNames`. */
export function findMembersByLowerNames(
  db: Db,
  lowerNames: readonly string[],
): Promise<{ id: string; username: string }[]> {
  return db
    .selectFrom('users')
    .select(['id', 'username'])
    .where(sql<string>`lower(username)`, 'in', lowerNames)
    .execute();
}

export function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

export async function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
}

/** Members with, for the viewer, whether they follow each (`followed`). */
function listedUsers(db: Db, viewerId: string | null) {
  return db
    .selectFrom('users as u')
    .select(MEMBER_COLUMNS)
    .select((eb) =>
      viewerId === null
        ? sql<boolean>`0`.as('followed')
        : eb
            .exists(
              eb
                .selectFrom('follows')
                .select('follows.followee_id')
                .where('follows.follower_id', '=', viewerId)
                .whereRef('follows.followee_id', '=', 'u.id'),
            )
            .as('followed'),
    );
}

/** One listed member, by lower-cased username or by id, with or without a viewer. */
const listedMember = compiledShapes(
  (
    { viewer, by }: { viewer: boolean; by: 'username' | 'id' },
    db: Db,
    key: string,
    viewerId: string | null,
  ) =>
    listedUsers(db, viewer ? viewerId : null).where(
      by === 'username' ? sql<string>`lower(u.username)` : sql<string>`u.id`,
      '=',
      key,
    ),
);

export async function findListedUserByUsername(
  db: Db,
  username: string,
  viewerId: string | null,
): Promise<ListedUserRow | undefined> {
  const byUsername = listedMember({ viewer: viewerId !== null, by: 'username' });
  const [row] = await byUsername(db, username.toLowerCase(), viewerId);
  return row;
}

export async function findListedUserById(
  db: Db,
  id: string,
  viewerId: string | null,
): Promise<ListedUserRow | undefined> {
  const byId = listedMember({ viewer: viewerId !== null, by: 'id' });
  const [row] = await byId(db, id, viewerId);
  return row;
}

/** Who to follow, in each of its shapes (see compiledShapes). */
const suggestionQuery = compiledShapes(
  (
    { paged, excepting }: { paged: boolean; excepting: boolean },
    db: Db,
    viewerId: string,
    afterFollowers: number,
    afterId: string,
    limit: number,
    exceptIds: unknown,
  ) => {
    let builder = db
      .selectFrom('users as u')
      .selectAll('u')
      .where('u.id', '<>', viewerId)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('follows')
              .select('follows.followee_id')
              .where('follows.follower_id', '=', viewerId)
              .whereRef('follows.followee_id', '=', 'u.id'),
          ),
        ),
      );
    if (excepting) builder = builder.where('u.id', 'not in', idList(db, exceptIds));
    if (paged) {
      builder = builder.where((eb) =>
        eb(eb.refTuple('u.followers_count', 'u.id'), '<', eb.tuple(afterFollowers, afterId)),
      );
    }
    return builder.orderBy('u.followers_count', 'desc').orderBy('u.id', 'desc').limit(limit);
  },
);

/**
 * Who to follow: neither the viewer, nor anyone they follow, nor `exceptIds` (those blocked either
 * way with the viewer), most followed first.
 */
export function suggestUsers(
  db: Db,
  query: {
    viewerId: string;
    after: readonly [number, string] | null;
    limit: number;
    exceptIds: readonly string[];
  },
): Promise<UserRow[]> {
  const { viewerId, after, limit, exceptIds } = query;
  const suggestions = suggestionQuery({ paged: after !== null, excepting: exceptIds.length > 0 });
  return suggestions(
    db,
    viewerId,
    after?.[0] ?? 0,
    after?.[1] ?? '',
    limit + 1,
    idListValue(db, exceptIds),
  );
}

export async function updateProfile(
  db: Db,
  id: string,
  changes: {
    first_name: string;
    last_name: string;
    bio: string;
    avatar_url: string | null;
    updated_at: number;
  },
): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

/**
 * Replaces the member's password hash if it still is `expected`; false when it changed meanwhile
 * (two changes racing: the first wins, the second's current password is no longer right).
 */
export async function replacePasswordHash(
  db: Db,
  id: string,
  expected: string,
  hash: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ password_hash: hash })
    .where('id', '=', id)
    .where('password_hash', '=', expected)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** true when the follow is new. */
export async function insertFollow(
  db: Db,
  followerId: string,
  followeeId: string,
  at: number,
): Promise<boolean> {
  const result = await db
    .insertInto('follows')
    .values({ follower_id: followerId, followee_id: followeeId, created_at: at })
    .onConflict((oc) => oc.columns(['follower_id', 'followee_id']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export async function deleteFollow(
  db: Db,
  followerId: string,
  followeeId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('follows')
    .where('follower_id', '=', followerId)
    .where('followee_id', '=', followeeId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * One more followee for `userId`, unless they already follow `max` members; false then. The
 * check and the change are one statement, so concurrent follows cannot pass the limit together.
 */
export async function incrementFollowingWithin(
  db: Db,
  userId: string,
  max: number,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set((eb) => ({ following_count: eb('following_count', '+', 1) }))
    .where('id', '=', userId)
    .where('following_count', '<', max)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function adjustFollowCount(
  db: Db,
  userId: string,
  column: 'followers_count' | 'following_count',
  delta: 1 | -1,
): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ [column]: eb(column, '+', delta) }))
    .where('id', '=', userId)
    .execute();
}

export type UserStubRow = Pick<
  UserRow,
  'id' | 'username' | 'first_name' | 'last_name' | 'avatar_url'
>;

const summaryColumns = [
  'u.id',
  'u.username',
  'u.first_name',
  'u.last_name',
  'u.avatar_url',
] as const;

/** The summaries of the members among `ids` (see idListValue) that exist, in no order. */
export const summariesAmong = compiledQuery((db: Db, ids: unknown) =>
  db.selectFrom('users as u').select(summaryColumns).where('u.id', 'in', idList(db, ids)),
);

/** The members among `ids` (see idListValue) that exist, as lists show them, in no order. */
export const membersAmong = compiledQuery((db: Db, ids: unknown) =>
  db.selectFrom('users as u').select(MEMBER_COLUMNS).where('u.id', 'in', idList(db, ids)),
);

/**
 * The `listed` ids of the follows `follows` picks, up to `limit`, in id order (as the indexes hold
 * them), as one comma-joined value (see joinedIds): a profile lists up to 500 of each.
 */
function joinedFollowIds(
  db: Db,
  listed: 'follower_id' | 'followee_id',
  follows: SelectQueryBuilder<Database, 'follows', object>,
  limit: number,
) {
  const picked = follows.select(sql.ref<string>(listed).as('id')).orderBy(listed).limit(limit);
  return db.selectFrom(picked.as('f')).select(joinedIds(db, sql.ref<string>('f.id')).as('ids'));
}

const followerIds = compiledQuery((db: Db, followeeId: string, limit: number) =>
  joinedFollowIds(
    db,
    'follower_id',
    db.selectFrom('follows').where('followee_id', '=', followeeId),
    limit,
  ),
);

const followerIdsExcept = compiledQuery(
  (db: Db, followeeId: string, exceptId: string, limit: number) =>
    joinedFollowIds(
      db,
      'follower_id',
      db
        .selectFrom('follows')
        .where('followee_id', '=', followeeId)
        .where('follower_id', '<>', exceptId),
      limit,
    ),
);

/** Up to `limit` of the members who follow `followeeId` but `exceptId`, in member id order. */
export async function listFollowerIds(
  db: Db,
  query: { followeeId: string; exceptId: string | null; limit: number },
): Promise<string[]> {
  const [row] =
    query.exceptId === null
      ? await followerIds(db, query.followeeId, query.limit)
      : await followerIdsExcept(db, query.followeeId, query.exceptId, query.limit);
  return splitIds(row?.ids);
}

/** Whom `followerId` follows, in member id order (as the primary key holds them). */
const followeeIds = compiledQuery((db: Db, followerId: string, limit: number) =>
  joinedFollowIds(
    db,
    'followee_id',
    db.selectFrom('follows').where('follower_id', '=', followerId),
    limit,
  ),
);

export async function listFollowingIds(
  db: Db,
  query: { followerId: string; limit: number },
): Promise<string[]> {
  const [row] = await followeeIds(db, query.followerId, query.limit);
  return splitIds(row?.ids);
}

// Bounds the IN lists below; SQLite allows up to 32,766 parameters, PostgreSQL 65,535.
const ID_CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += ID_CHUNK) out.push(items.slice(i, i + ID_CHUNK));
  return out;
}

/** Of `candidateIds`, those who follow `followeeId`. */
export async function followersAmong(
  db: Db,
  followeeId: string,
  candidateIds: readonly string[],
): Promise<string[]> {
  const found: string[] = [];
  for (const chunk of chunks(candidateIds)) {
    const rows = await db
      .selectFrom('follows')
      .select('follower_id')
      .where('followee_id', '=', followeeId)
      .where('follower_id', 'in', chunk)
      .execute();
    for (const row of rows) found.push(row.follower_id);
  }
  return found;
}

/** Of `followeeIds`, those whom `followerId` follows. */
export async function followeesAmong(
  db: Db,
  followerId: string,
  followeeIds: readonly string[],
): Promise<string[]> {
  const found: string[] = [];
  for (const chunk of chunks(followeeIds)) {
    const rows = await db
      .selectFrom('follows')
      .select('followee_id')
      .where('follower_id', '=', followerId)
      .where('followee_id', 'in', chunk)
      .execute();
    for (const row of rows) found.push(row.followee_id);
  }
  return found;
}

export type FollowListRow = MemberRow & { followed_at: number };

/**
 * A page of a member's followers (`side` follower: who follows `userId`) or followees, newest
 * follow first; keyset [follows.created_at, the other member's id]. `exceptIds` are left out.
 */
export function listFollowRows(
  db: Db,
  query: {
    userId: string;
    side: 'followers' | 'following';
    after: readonly [number, string] | null;
    exceptIds: readonly string[];
    limit: number;
  },
): Promise<FollowListRow[]> {
  const [own, other] =
    query.side === 'followers'
      ? (['f.followee_id', 'f.follower_id'] as const)
      : (['f.follower_id', 'f.followee_id'] as const);
  let builder = db
    .selectFrom('follows as f')
    .innerJoin('users as u', 'u.id', other)
    .select([...MEMBER_COLUMNS, 'f.created_at as followed_at'])
    .where(own, '=', query.userId);
  const after = query.after;
  if (after) {
    builder = builder.where((eb) =>
      eb(eb.refTuple('f.created_at', other), '<', eb.tuple(...after)),
    );
  }
  for (const chunk of chunks(query.exceptIds)) builder = builder.where(other, 'not in', chunk);
  return builder
    .orderBy('f.created_at', 'desc')
    .orderBy(other, 'desc')
    .limit(query.limit + 1)
    .execute();
}
