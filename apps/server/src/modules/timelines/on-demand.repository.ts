import type { Compilable, Kysely } from 'kysely';
import { compiledCommand, compiledQuery } from '../../platform/db/compiled';
import { idList } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';
import type { RankedEntry } from './timelines.repository';

type Db = Kysely<Database>;

/**
 * The posts of widely followed authors, which Home reads when it is read instead of finding them
 * in the timeline (see timelines.service). Post ids are ULIDs minted from the creation time, so a
 * range of ids is also a range of `created_at`: the queries bound both, the one for the
 * `(user_id, created_at, id)` index and the other for the exact range.
 */

export interface OnDemandAuthor {
  user_id: string;
  /** Their first post not written to timelines. */
  since: string;
}

/** The widely followed authors the member follows. */
export const followedOnDemandAuthors = compiledQuery(
  (db: Db, userId: string): Compilable<OnDemandAuthor> =>
    db
      .selectFrom('follows as f')
      .innerJoin('pulled_authors as a', 'a.user_id', 'f.followee_id')
      .select(['a.user_id', 'a.since'])
      .where('f.follower_id', '=', userId),
);

/** Where each author read on demand among `authorIds` (an idListValue) has their posts read on demand begin. */
export const onDemandSinceAmong = compiledQuery((db: Db, authorIds: unknown) =>
  db
    .selectFrom('pulled_authors')
    .select(['user_id', 'since'])
    .where('user_id', 'in', idList(db, authorIds)),
);

/** Pulls the author's posts from `since` on (or from an earlier post that arrived late). */
export const markOnDemand = compiledCommand((db: Db, authorId: string, since: string) =>
  db
    .insertInto('pulled_authors')
    .values({ user_id: authorId, since })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ since }).where('pulled_authors.since', '>', since),
    ),
);

/** The author's post ids in [fromId, beforeId), newest first. */
export const authorPostsBetween = compiledQuery(
  (
    db: Db,
    authorId: string,
    fromTime: number,
    fromId: string,
    toTime: number,
    beforeId: string,
    limit: number,
  ) =>
    db
      .selectFrom('posts')
      .select('id')
      .where('user_id', '=', authorId)
      .where('created_at', '>=', fromTime)
      .where('created_at', '<=', toTime)
      .where('id', '>=', fromId)
      .where('id', '<', beforeId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit),
);

/** The author's reposts in [fromId, beforeId), newest first (reposts_user_idx). */
export const authorRepostsBetween = compiledQuery(
  (db: Db, authorId: string, fromId: string, beforeId: string, limit: number) =>
    db
      .selectFrom('reposts')
      .select(['id', 'post_id'])
      .where('user_id', '=', authorId)
      .where('id', '>=', fromId)
      .where('id', '<', beforeId)
      .orderBy('id', 'desc')
      .limit(limit),
);

/** The author's newest posts from `fromId` on, with what trending orders by. */
export const authorRankedFrom = compiledQuery(
  (
    db: Db,
    authorId: string,
    fromTime: number,
    fromId: string,
    limit: number,
  ): Compilable<RankedEntry> =>
    db
      .selectFrom('posts')
      .select(['id', 'user_id as author_id', 'like_count', 'created_at'])
      .where('user_id', '=', authorId)
      .where('created_at', '>=', fromTime)
      .where('id', '>=', fromId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit),
);
