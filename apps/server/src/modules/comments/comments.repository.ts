import type { Kysely } from 'kysely';
import { compiledCommand, compiledQuery } from '../../platform/db/compiled';
import { idList, idListValue } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

export interface CommentViewRow {
  id: string;
  post_id: string;
  user_id: string | null;
  text: string;
  entities: string | null;
  upvote_count: number;
  downvote_count: number;
  created_at: number;
  updated_at: number;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  avatar_url: string | null;
  viewer_vote: number | null;
}

/**
 * Comment views as the viewer may see them: without those of `hidden` members (blocked either way
 * or muted, see modules/safety). A deleted member's comments (no author) always show.
 */
function commentViews(db: Db, viewerId: string | null, hidden: readonly string[] = []) {
  const views = db
    .selectFrom('comments as c')
    .leftJoin('users as u', 'u.id', 'c.user_id')
    .select([
      'c.id',
      'c.post_id',
      'c.user_id',
      'c.text',
      'c.entities',
      'c.upvote_count',
      'c.downvote_count',
      'c.created_at',
      'c.updated_at',
      'u.username',
      'u.first_name',
      'u.last_name',
      'u.avatar_url',
    ])
    .select((eb) =>
      eb
        .selectFrom('comment_votes as v')
        .select('v.vote')
        .whereRef('v.comment_id', '=', 'c.id')
        .where('v.user_id', '=', viewerId ?? '')
        .as('viewer_vote'),
    );
  if (hidden.length === 0) return views;
  return views.where((eb) =>
    eb.or([
      eb('c.user_id', 'is', null),
      eb('c.user_id', 'not in', idList(db, idListValue(db, hidden))),
    ]),
  );
}

/** A post's comments, oldest first; keyset [created_at, id]. */
export function listCommentViews(
  db: Db,
  query: {
    postId: string;
    viewerId: string | null;
    after: readonly [number, string] | null;
    limit: number;
    hidden: readonly string[];
  },
): Promise<CommentViewRow[]> {
  let builder = commentViews(db, query.viewerId, query.hidden).where(
    'c.post_id',
    '=',
    query.postId,
  );
  const after = query.after;
  if (after) {
    builder = builder.where((eb) =>
      eb(eb.refTuple('c.created_at', 'c.id'), '>', eb.tuple(...after)),
    );
  }
  return builder
    .orderBy('c.created_at', 'asc')
    .orderBy('c.id', 'asc')
    .limit(query.limit + 1)
    .execute();
}

const allCommentViewsOf = compiledQuery(
  (db: Db, postIds: unknown, viewerId: string, hidden: unknown) =>
    commentViews(db, viewerId)
      .where('c.post_id', 'in', idList(db, postIds))
      .where((eb) =>
        eb.or([eb('c.user_id', 'is', null), eb('c.user_id', 'not in', idList(db, hidden))]),
      )
      .orderBy('c.post_id')
      .orderBy('c.created_at')
      .orderBy('c.id'),
);

/**
 * Every comment of the posts, each post's oldest first: for posts with no more comments than are
 * embedded. One statement compiled once, the rows in the index's order (ranking them in SQL took
 * two and a half times as long).
 */
export function listAllCommentViews(
  db: Db,
  query: { postIds: readonly string[]; viewerId: string | null; hidden: readonly string[] },
): Promise<CommentViewRow[]> {
  return allCommentViewsOf(
    db,
    idListValue(db, query.postIds),
    query.viewerId ?? '',
    idListValue(db, query.hidden),
  );
}

/**
 * The first `perPost` comments of each post, oldest first, as one limited index range per post (a
 * UNION ALL of per-post queries): for posts with more comments than that.
 */
export async function listFirstCommentViewsByPost(
  db: Db,
  query: {
    postIds: readonly string[];
    viewerId: string | null;
    perPost: number;
    hidden: readonly string[];
  },
): Promise<CommentViewRow[]> {
  const [first, ...rest] = query.postIds.map((postId, index) =>
    db
      .selectFrom(
        commentViews(db, query.viewerId, query.hidden)
          .where('c.post_id', '=', postId)
          .orderBy('c.created_at', 'asc')
          .orderBy('c.id', 'asc')
          .limit(query.perPost)
          .as(`p${index}`),
      )
      .selectAll(),
  );
  if (!first) return [];
  return rest.reduce((union, next) => union.unionAll(next), first).execute();
}

const votesAmong = compiledQuery((db: Db, userId: string, commentIds: unknown) =>
  db
    .selectFrom('comment_votes')
    .select(['comment_id', 'vote'])
    .where('user_id', '=', userId)
    .where('comment_id', 'in', idList(db, commentIds)),
);

/** Up to `limit` of the member's votes (any order). */
export const votesOf = compiledQuery((db: Db, userId: string, limit: number) =>
  db
    .selectFrom('comment_votes')
    .select(['comment_id', 'vote'])
    .where('user_id', '=', userId)
    .limit(limit),
);

/** The member's votes on those of `commentIds` they voted on. */
export function listVotesAmong(
  db: Db,
  userId: string,
  commentIds: readonly string[],
): Promise<{ comment_id: string; vote: number }[]> {
  return votesAmong(db, userId, idListValue(db, commentIds));
}

const commentView = compiledQuery((db: Db, commentId: string, viewerId: string | null) =>
  commentViews(db, viewerId).where('c.id', '=', commentId),
);

export async function findCommentView(
  db: Db,
  commentId: string,
  viewerId: string | null,
): Promise<CommentViewRow | undefined> {
  const [row] = await commentView(db, commentId, viewerId ?? '');
  return row;
}

const commentOwner = compiledQuery((db: Db, commentId: string) =>
  db
    .selectFrom('comments')
    .select(['id', 'post_id', 'user_id', 'created_at'])
    .where('id', '=', commentId),
);

export async function findCommentOwner(
  db: Db,
  commentId: string,
): Promise<
  { id: string; post_id: string; user_id: string | null; created_at: number } | undefined
> {
  const [row] = await commentOwner(db, commentId);
  return row;
}

const commentInsert = compiledCommand(
  (
    db: Db,
    id: string,
    postId: string,
    userId: string,
    text: string,
    entities: string | null,
    createdAt: number,
  ) =>
    db.insertInto('comments').values({
      id,
      post_id: postId,
      user_id: userId,
      text,
      entities,
      created_at: createdAt,
      updated_at: createdAt,
    }),
);

/** A comment as it is first written. */
export interface NewComment {
  id: string;
  post_id: string;
  user_id: string;
  text: string;
  entities: string | null;
  created_at: number;
}

export async function insertComment(db: Db, comment: NewComment): Promise<void> {
  await commentInsert(
    db,
    comment.id,
    comment.post_id,
    comment.user_id,
    comment.text,
    comment.entities,
    comment.created_at,
  );
}

export async function updateCommentText(
  db: Db,
  commentId: string,
  text: string,
  entities: string | null,
  at: number,
): Promise<void> {
  await db
    .updateTable('comments')
    .set({ text, entities, updated_at: at })
    .where('id', '=', commentId)
    .execute();
}

export async function deleteComment(db: Db, commentId: string): Promise<boolean> {
  const result = await db.deleteFrom('comments').where('id', '=', commentId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
