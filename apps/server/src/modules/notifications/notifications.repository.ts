import { NOTIFICATION_ACTORS_SHOWN } from '@perch/contract';
import { sql, type Insertable, type Kysely } from 'kysely';
import {
  idList,
  idListValue,
  isPostgres,
  runDeferredTriggers,
  withRowLock,
} from '../../platform/db/dialect';
import { compiledCommand, compiledQuery } from '../../platform/db/compiled';
import type { Database, NotificationsTable } from '../../platform/db/schema';

type Db = Kysely<Database>;

export type NewNotification = Omit<Insertable<NotificationsTable>, 'read_at'>;

const notificationInsert = compiledCommand(
  (
    db: Db,
    id: string,
    recipientId: string,
    kind: string,
    actorId: string,
    postId: string | null,
    commentId: string | null,
    groupKey: string,
    createdAt: number,
  ) =>
    db.insertInto('notifications').values({
      id,
      recipient_id: recipientId,
      kind,
      actor_id: actorId,
      post_id: postId,
      comment_id: commentId,
      group_key: groupKey,
      created_at: createdAt,
    }),
);

export async function insertNotification(db: Db, row: NewNotification): Promise<void> {
  await notificationInsert(
    db,
    row.id,
    row.recipient_id,
    row.kind,
    row.actor_id,
    row.post_id ?? null,
    row.comment_id ?? null,
    row.group_key,
    row.created_at,
  );
}

const unreadDelete = compiledCommand(
  (db: Db, recipientId: string, groupKey: string, kind: string, actorId: string) =>
    db
      .deleteFrom('notifications')
      .where('recipient_id', '=', recipientId)
      .where('group_key', '=', groupKey)
      .where('kind', '=', kind)
      .where('actor_id', '=', actorId)
      .where('read_at', 'is', null),
);

/** Takes back what an undone action caused, while its recipient has not seen it. */
export async function deleteUnread(
  db: Db,
  where: { recipientId: string; kind: string; actorId: string; groupKey: string },
): Promise<boolean> {
  const deleted = await unreadDelete(
    db,
    where.recipientId,
    where.groupKey,
    where.kind,
    where.actorId,
  );
  return deleted > 0n;
}

/** Whether the member was already told of this (a mention made again by an edit is not news). */
export async function hasNotification(
  db: Db,
  where: { recipientId: string; kind: string; actorId: string; groupKey: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('notifications')
    .select('id')
    .where('recipient_id', '=', where.recipientId)
    .where('group_key', '=', where.groupKey)
    .where('kind', '=', where.kind)
    .where('actor_id', '=', where.actorId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * In a transaction that changed notifications, before it reads counts: PostgreSQL counts inserts
 * and deletes at commit (see migration 0020), so they are counted now.
 */
export const settleUnreadCounts = (trx: Db): Promise<void> =>
  runDeferredTriggers(trx, ['notifications_unread_insert', 'notifications_unread_delete']);

const keptUnread = compiledQuery((db: Db, recipientId: string) =>
  db
    .selectFrom('notification_unread_counts')
    .select('count')
    .where('recipient_id', '=', recipientId),
);

/**
 * Unread notifications, leaving out those caused by `hiddenActors` (muted, blocked): the count
 * triggers keep (migration 0020) when there are none, counted from the rows otherwise.
 */
export async function countUnread(
  db: Db,
  recipientId: string,
  hiddenActors: readonly string[],
): Promise<number> {
  if (hiddenActors.length === 0) {
    const [kept] = await keptUnread(db, recipientId);
    return Number(kept?.count ?? 0);
  }
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('recipient_id', '=', recipientId)
    .where('read_at', 'is', null)
    .where('actor_id', 'not in', idList(db, idListValue(db, hiddenActors)))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Removes the notifications either member caused the other; answers whose were removed. */
export async function deleteBetween(db: Db, a: string, b: string): Promise<string[]> {
  const rows = await db
    .deleteFrom('notifications')
    .where((eb) =>
      eb.or([
        eb.and([eb('recipient_id', '=', a), eb('actor_id', '=', b)]),
        eb.and([eb('recipient_id', '=', b), eb('actor_id', '=', a)]),
      ]),
    )
    .returning('recipient_id')
    .execute();
  return [...new Set(rows.map((row) => row.recipient_id))];
}

/**
 * Members other than `userId` holding unread notifications that go with the member's account:
 * caused by them, or about their posts and comments (each read on its own index).
 */
export async function recipientsTouchedByMember(db: Db, userId: string): Promise<string[]> {
  const { rows } = await sql<{ recipient_id: string }>`
    select n.recipient_id from notifications n
      where n.actor_id = ${userId} and n.read_at is null and n.recipient_id <> ${userId}
    union
    select n.recipient_id from posts p join notifications n on n.post_id = p.id
      where p.user_id = ${userId} and n.read_at is null and n.recipient_id <> ${userId}
    union
    select n.recipient_id from comments c join notifications n on n.comment_id = c.id
      where c.user_id = ${userId} and n.read_at is null and n.recipient_id <> ${userId}`.execute(
    db,
  );
  return rows.map((row) => row.recipient_id);
}

/** The kept unread counts of the members in `ids` (see idListValue), hidden actors included. */
export function unreadCountsAmong(
  db: Db,
  ids: unknown,
): Promise<{ recipient_id: string; count: number | string }[]> {
  return db
    .selectFrom('notification_unread_counts')
    .select(['recipient_id', 'count'])
    .where('recipient_id', 'in', idList(db, ids))
    .execute();
}

export async function markAllRead(db: Db, recipientId: string, at: number): Promise<number> {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('recipient_id', '=', recipientId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

const unreadFlag = sql<number>`case when read_at is null then 1 else 0 end`;

/**
 * Removes the member's notifications: all of them, or one group's (its unread or its read ones);
 * answers how many were removed.
 */
export async function deleteForRecipient(
  db: Db,
  recipientId: string,
  group: { groupKey: string; unread: boolean } | null,
): Promise<number> {
  let query = db.deleteFrom('notifications').where('recipient_id', '=', recipientId);
  if (group) {
    query = query
      .where('group_key', '=', group.groupKey)
      .where('read_at', group.unread ? 'is' : 'is not', null);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface GroupRow {
  group_key: string;
  unread: number;
  kind: string;
  latest_at: number;
  actor_count: number;
  post_id: string | null;
  comment_id: string | null;
  post_content: string | null;
  post_media_url: string | null;
  comment_text: string | null;
}

/** Keyset of the group list: newest group first. */
export type GroupKeyset = readonly [number, string, number];

/** A page of the member's notification groups (unread and read ones apart), newest first. */
export function listGroups(
  db: Db,
  query: {
    recipientId: string;
    after: GroupKeyset | null;
    limit: number;
    /** Actors left out (muted, blocked): groups of theirs alone do not show. */
    hiddenActors: readonly string[];
  },
): Promise<GroupRow[]> {
  let groups = db
    .selectFrom('notifications')
    .select([
      'group_key',
      unreadFlag.as('unread'),
      (eb) => eb.fn.max('kind').as('kind'),
      (eb) => eb.fn.max('created_at').as('latest_at'),
      (eb) => eb.fn.count<number>('actor_id').distinct().as('actor_count'),
      (eb) => eb.fn.max('post_id').as('post_id'),
      (eb) => eb.fn.max('comment_id').as('comment_id'),
    ])
    .where('recipient_id', '=', query.recipientId)
    .groupBy(['group_key', unreadFlag]);
  if (query.hiddenActors.length > 0) {
    groups = groups.where('actor_id', 'not in', idList(db, idListValue(db, query.hiddenActors)));
  }
  if (query.after) {
    const [latestAt, groupKey, unread] = query.after;
    groups = groups.having(
      (eb) =>
        sql<boolean>`(${eb.fn.max('created_at')}, group_key, ${unreadFlag}) < (${latestAt}, ${groupKey}, ${unread})`,
    );
  }
  return db
    .selectFrom(groups.as('g'))
    .leftJoin('posts as p', 'p.id', 'g.post_id')
    .leftJoin('comments as c', 'c.id', 'g.comment_id')
    .select([
      'g.group_key',
      'g.unread',
      'g.kind',
      'g.latest_at',
      'g.actor_count',
      'g.post_id',
      'g.comment_id',
      'p.content as post_content',
      'p.media_url as post_media_url',
      'c.text as comment_text',
    ])
    .orderBy('g.latest_at', 'desc')
    .orderBy('g.group_key', 'desc')
    .orderBy('g.unread', 'desc')
    .limit(query.limit + 1)
    .execute();
}

export interface ActorRow {
  group_key: string;
  unread: number;
  id: string;
  username: string;
  first_name: string;
  last_name: string;
  avatar_url: string | null;
}

/** The newest few members of each of these groups. */
export function listGroupActors(
  db: Db,
  recipientId: string,
  groupKeys: readonly string[],
  hiddenActors: readonly string[],
): Promise<ActorRow[]> {
  if (groupKeys.length === 0) return Promise.resolve([]);
  let ranked = db
    .selectFrom('notifications as n')
    .innerJoin('users as u', 'u.id', 'n.actor_id')
    .select([
      'n.group_key',
      sql<number>`case when n.read_at is null then 1 else 0 end`.as('unread'),
      'u.id',
      'u.username',
      'u.first_name',
      'u.last_name',
      'u.avatar_url',
      sql<number>`row_number() over (partition by n.group_key, case when n.read_at is null then 1 else 0 end order by n.created_at desc, n.id desc)`.as(
        'rank',
      ),
    ])
    .where('n.recipient_id', '=', recipientId)
    .where('n.group_key', 'in', groupKeys);
  if (hiddenActors.length > 0) {
    ranked = ranked.where('n.actor_id', 'not in', idList(db, idListValue(db, hiddenActors)));
  }
  return db
    .selectFrom(ranked.as('r'))
    .select(['group_key', 'unread', 'id', 'username', 'first_name', 'last_name', 'avatar_url'])
    .where('rank', '<=', NOTIFICATION_ACTORS_SHOWN)
    .orderBy('rank')
    .execute();
}

/**
 * PostgreSQL: holds the rows (FOR KEY SHARE, the lock a foreign key's check takes) in id order,
 * until the transaction ends. SQLite needs nothing: its write transactions take turns.
 */
export async function holdRows(
  db: Db,
  table: 'users' | 'posts' | 'comments',
  ids: readonly string[],
): Promise<void> {
  if (!isPostgres(db) || ids.length === 0) return;
  const query = db
    .selectFrom(table)
    .select('id')
    .where('id', 'in', idList(db, idListValue(db, ids)))
    .orderBy('id');
  await withRowLock(db, query, (q) => q.forKeyShare()).execute();
}

const authorOfPost = compiledQuery((db: Db, postId: string) =>
  db.selectFrom('posts').select('user_id').where('id', '=', postId),
);

export async function postAuthorOf(db: Db, postId: string): Promise<string | null> {
  const [row] = await authorOfPost(db, postId);
  return row?.user_id ?? null;
}

const commentById = compiledQuery((db: Db, commentId: string) =>
  db.selectFrom('comments').select('id').where('id', '=', commentId),
);

export async function commentExists(db: Db, commentId: string): Promise<boolean> {
  return (await commentById(db, commentId)).length > 0;
}

const userById = compiledQuery((db: Db, userId: string) =>
  db.selectFrom('users').select('id').where('id', '=', userId),
);

export async function userExists(db: Db, userId: string): Promise<boolean> {
  return (await userById(db, userId)).length > 0;
}
