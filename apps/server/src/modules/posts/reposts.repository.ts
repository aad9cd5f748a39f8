import type { Kysely } from 'kysely';
import { idList, idListValue } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

export interface RepostRow {
  id: string;
  post_id: string;
  user_id: string;
}

/** The reposts by these members of these posts (each pair's, and any other pair's among them). */
export function repostsAmong(
  db: Db,
  postIds: readonly string[],
  userIds: readonly string[],
): Promise<RepostRow[]> {
  if (postIds.length === 0 || userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('reposts')
    .select(['id', 'post_id', 'user_id'])
    .where('post_id', 'in', postIds)
    .where('user_id', 'in', userIds)
    .execute();
}

export function findRepost(db: Db, id: string): Promise<RepostRow | undefined> {
  return db
    .selectFrom('reposts')
    .select(['id', 'post_id', 'user_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * The members who liked or reposted a post, newest first after `after` (time, member id), one
 * more than `limit` to tell whether more follow; those `hidden` left out.
 */
export function interactorRows(
  db: Db,
  query: {
    table: 'likes' | 'reposts';
    postId: string;
    after: readonly [number, string] | null;
    limit: number;
    hidden: readonly string[];
  },
): Promise<{ user_id: string; created_at: number }[]> {
  let builder = db
    .selectFrom(query.table)
    .select(['user_id', 'created_at'])
    .where('post_id', '=', query.postId)
    .orderBy('created_at', 'desc')
    .orderBy('user_id', 'desc')
    .limit(query.limit + 1);
  if (query.hidden.length > 0) {
    builder = builder.where('user_id', 'not in', idList(db, idListValue(db, query.hidden)));
  }
  const after = query.after;
  if (after) {
    const [time, id] = after;
    builder = builder.where((eb) =>
      eb.or([
        eb('created_at', '<', time),
        eb.and([eb('created_at', '=', time), eb('user_id', '<', id)]),
      ]),
    );
  }
  return builder.execute();
}
