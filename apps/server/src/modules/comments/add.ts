import { IdempotencyErrors, type Comment, type Post } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { EventRecorder } from '../../platform/events/transactions';
import type { PostsService } from '../posts/posts.service';
import { encodeEntities } from '../discovery/entities.codec';
import { recordMentions } from '../discovery/entities.service';
import { authorColumns } from '../users/users.mapper';
import { commentView } from './comment-view';
import type { CommentsServiceDeps, Db } from './comments.deps';
import { toComment } from './comments.mapper';
import * as repo from './comments.repository';

/** The post as a change under it read it (PostsService.lockedPost). */
type LockedPost = Awaited<ReturnType<PostsService['lockedPost']>>;

/** A new comment's transaction: the comment written, or the one an earlier try made. */
type AddOutcome =
  | { replayed: true; commentId: string }
  | { replayed: false; row: repo.NewComment; postRow: LockedPost };

interface NewCommentInput {
  viewer: Viewer;
  postId: string;
  text: string;
  idempotencyKey: string | undefined;
}

/**
 * The comment just written, as its author sees it: the row as written, their stored summary,
 * no votes yet (reading it back would cost the write a query).
 */
async function madeComment(
  { db, authors }: Pick<CommentsServiceDeps, 'db' | 'authors'>,
  row: repo.NewComment,
  viewer: Viewer,
): Promise<Comment> {
  const [author] = await authors.of([viewer.id]);
  if (!author) return commentView(db, row.id, viewer);
  return toComment(
    {
      ...row,
      upvote_count: 0,
      downvote_count: 0,
      updated_at: row.created_at,
      ...authorColumns(author),
      viewer_vote: null,
    },
    viewer,
  );
}

/** The comment's rows, counter, mentions and events, in the caller's transaction. */
async function writeComment(
  { posts, entities, idempotency }: Pick<CommentsServiceDeps, 'posts' | 'entities' | 'idempotency'>,
  trx: Db,
  events: EventRecorder,
  { viewer, postId, text, idempotencyKey }: NewCommentInput,
): Promise<AddOutcome> {
  const now = Date.now();
  const id = newId(now);
  // The answer's viewer state is the reader's stored one, read after the commit.
  const locked = await posts.lockedPost(trx, postId, viewer, 'none');
  if (idempotencyKey !== undefined) {
    const earlier = await idempotency.replayed(trx, viewer.id, idempotencyKey, 'comment');
    if (earlier !== null) return { replayed: true, commentId: earlier };
  }
  const found = await entities.resolve(trx, text);
  const row = {
    id,
    post_id: postId,
    user_id: viewer.id,
    text,
    entities: encodeEntities(found),
    created_at: now,
  };
  await repo.insertComment(trx, row);
  const mentioned = await entities.record(trx, 'comment', {
    id,
    authorId: viewer.id,
    createdAt: now,
    entities: found,
    fresh: true,
  });
  await posts.adjustCommentCount(trx, postId, 1);
  events.record({
    type: 'comment.added',
    payload: {
      postId,
      commentId: id,
      postAuthorId: locked.user_id,
      userId: viewer.id,
      commentCount: locked.comment_count + 1,
    },
  });
  recordMentions(events, { postId, commentId: id, authorId: viewer.id }, mentioned);
  if (idempotencyKey !== undefined) {
    await idempotency.made(trx, viewer.id, idempotencyKey, { comment_id: id });
  }
  // The answer's post view is the row read for the change, with the new count.
  return { replayed: false, row, postRow: { ...locked, comment_count: locked.comment_count + 1 } };
}

/** With an idempotency key, a retry answers the comment the first request made. */
export async function addComment(
  deps: CommentsServiceDeps,
  viewer: Viewer,
  postId: string,
  text: string,
  idempotencyKey?: string,
): Promise<{ comment: Comment; post: Post }> {
  const { db, transact, posts } = deps;
  const outcome = await transact((trx, events) =>
    writeComment(deps, trx, events, { viewer, postId, text, idempotencyKey }),
  );
  if (outcome.replayed) {
    const comment = await commentView(db, outcome.commentId, viewer);
    if (comment.postId !== postId) throw new AppError(422, IdempotencyErrors.reused);
    return { comment, post: await posts.card(postId, viewer) };
  }
  const [comment, post] = await Promise.all([
    madeComment(deps, outcome.row, viewer),
    posts.asMarkedPost(outcome.postRow, viewer),
  ]);
  return { comment, post };
}
