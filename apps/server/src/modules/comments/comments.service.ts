import {
  IdempotencyErrors,
  ErrorMessages,
  type Comment,
  type CommentPage,
  type PageQuery,
  type Post,
  type UserStub,
} from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Viewer } from '../../lib/viewer';
import type { Database } from '../../platform/db/schema';
import type { Transact } from '../../platform/events/transactions';
import { decodeCursor, pageOf } from '../../lib/cursor';
import { AppError, badRequest, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { FIRST_PAGE_SIZE, type PostsService } from '../posts/posts.service';
import { encodeEntities } from '../discovery/entities.codec';
import { recordMentions, type EntitiesService } from '../discovery/entities.service';
import type { IdempotencyService } from '../idempotency/idempotency.service';
import type { HiddenMembers } from '../safety/hidden-members';
import { authorColumns } from '../users/users.mapper';
import { toComment, withViewerVote } from './comments.mapper';
import { readFirstComments, type Commented, type FirstComments } from './first-comments';
import * as repo from './comments.repository';
import type { ReaderVotes } from './reader-votes';

type Db = Kysely<Database>;
export type VoteDirection = 'up' | 'down';

/** The post as a change under it read it (PostsService.lockedPost). */
type LockedPost = Awaited<ReturnType<PostsService['lockedPost']>>;

/** A new comment's transaction: the comment written, or the one an earlier try made. */
type AddOutcome =
  | { replayed: true; commentId: string }
  | { replayed: false; row: repo.NewComment; postRow: LockedPost };

export interface CommentsServiceDeps {
  db: Db;
  /** Where answers' embedded comments are read (a read-only connection on SQLite). */
  reads: Db;
  /** Posts' first comments, kept (see first-comments.ts). */
  firstComments: Pick<FirstComments, 'of' | 'forget'>;
  /** Readers' votes, kept (see reader-votes.ts). */
  votes: Pick<ReaderVotes, 'of' | 'forget'>;
  transact: Transact;
  posts: Pick<
    PostsService,
    'lockedPost' | 'card' | 'exists' | 'adjustCommentCount' | 'changed' | 'asMarkedPost'
  >;
  entities: Pick<EntitiesService, 'resolve' | 'record'>;
  /** Comments of members the viewer does not see (blocked either way, muted) are left out. */
  hidden: Pick<HiddenMembers, 'hiddenFor' | 'isBlockedEitherWay'>;
  /** Comments sent again with the same Idempotency-Key answer the first one's comment. */
  idempotency: Pick<IdempotencyService, 'replayed' | 'made'>;
  /** The members' stubs, kept apart: a new comment shows its author's. */
  authors: { of(ids: readonly string[]): Promise<UserStub[]> };
}

export function createCommentsService({
  db,
  reads,
  firstComments,
  votes,
  transact,
  posts,
  entities,
  hidden,
  idempotency,
  authors,
}: CommentsServiceDeps) {
  /**
   * For a change: locks the post (as every change under a post does, see lockPostForChange), then
   * finds the comment, which must belong to that post.
   */
  async function lockedCommentOnPost(trx: Db, postId: string, commentId: string, viewer: Viewer) {
    const post = await posts.lockedPost(trx, postId, viewer, 'none');
    const comment = await repo.findCommentOwner(trx, commentId);
    if (!comment) throw notFound(ErrorMessages.commentNotFound);
    if (comment.post_id !== postId) throw notFound(ErrorMessages.commentNotOnPost);
    return { post, comment };
  }

  async function card(commentId: string, viewer: Viewer | null, trx: Db = db): Promise<Comment> {
    const row = await repo.findCommentCard(trx, commentId, viewer?.id ?? null);
    if (!row) throw notFound(ErrorMessages.commentNotFound);
    return toComment(row, viewer);
  }

  /**
   * The comment just written, as its author sees it: the row as written, their kept stub, no
   * votes yet. Reading it back took 27 µs of the 194 µs a comment spent in SQLite (1,000,000 posts).
   */
  async function madeComment(row: repo.NewComment, viewer: Viewer): Promise<Comment> {
    const [author] = await authors.of([viewer.id]);
    if (!author) return card(row.id, viewer);
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

  /** The comments as `viewer` sees them, with their own votes. */
  async function withVotesOf(
    viewer: Viewer | null,
    threads: ReadonlyMap<string, readonly Comment[]>,
  ): Promise<Map<string, Comment[]>> {
    const ids = [...threads.values()].flat().map((comment) => comment.id);
    const viewerVotes = viewer ? await votes.of(viewer.id, ids) : new Map<string, number>();
    const seen = new Map<string, Comment[]>();
    for (const [postId, comments] of threads) {
      seen.set(
        postId,
        comments.map((comment) => {
          const vote = viewerVotes.get(comment.id);
          return viewer && vote ? withViewerVote(comment, vote, viewer) : comment;
        }),
      );
    }
    return seen;
  }

  async function list(
    postId: string,
    viewer: Viewer | null,
    query: PageQuery,
  ): Promise<CommentPage> {
    if (!(await posts.exists(postId, viewer))) throw notFound(ErrorMessages.postNotFound);
    const after = query.cursor ? decodeCursor(query.cursor, ['number', 'string'] as const) : null;
    const rows = await repo.listCommentCards(db, {
      postId,
      viewerId: viewer?.id ?? null,
      after,
      limit: query.limit,
      hidden: await hidden.hiddenFor(viewer?.id ?? null),
    });
    const { items, nextCursor } = pageOf(rows, query.limit, (row) => [row.created_at, row.id]);
    return { comments: items.map((row) => toComment(row, viewer)), nextCursor };
  }

  return {
    list,

    /**
     * Each post's first comments, oldest first, as posts embed them (`comments`): the kept ones
     * (see first-comments.ts) with the reader's own votes on them, and those of posts whose kept
     * comments show a member the reader hides read again without them.
     */
    async firstCommentsOf(
      posts: readonly Commented[],
      viewer: Viewer | null,
    ): Promise<Map<string, Comment[]>> {
      const [threads, hiddenIds] = await Promise.all([
        firstComments.of(posts),
        hidden.hiddenFor(viewer?.id ?? null),
      ]);
      const hides = new Set(hiddenIds);
      const hiding = posts.filter((post) =>
        threads.get(post.id)?.some((comment) => comment.userId && hides.has(comment.userId)),
      );
      for (const post of hiding) threads.delete(post.id);
      const [voted, reread] = await Promise.all([
        withVotesOf(viewer, threads),
        hiding.length > 0
          ? readFirstComments(reads, hiding, { viewerId: viewer?.id ?? null, hidden: hiddenIds })
          : new Map<string, repo.CommentCardRow[]>(),
      ]);
      for (const [postId, rows] of reread) {
        voted.set(
          postId,
          rows.map((row) => toComment(row, viewer)),
        );
      }
      return voted;
    },

    firstPage: async (postId: string, viewer: Viewer) =>
      (await list(postId, viewer, { limit: FIRST_PAGE_SIZE })).comments,

    /** With an idempotency key, a retry answers the comment the first request made. */
    async add(
      viewer: Viewer,
      postId: string,
      text: string,
      idempotencyKey?: string,
    ): Promise<{ comment: Comment; post: Post }> {
      const now = Date.now();
      const id = newId(now);
      const outcome = await transact(async (trx, events): Promise<AddOutcome> => {
        // The answer's marks are the reader's kept ones, read after the commit.
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
        // The answer's card is the row read for the change, with the new count.
        return {
          replayed: false,
          row,
          postRow: { ...locked, comment_count: locked.comment_count + 1 },
        };
      });
      if (outcome.replayed) {
        const comment = await card(outcome.commentId, viewer);
        if (comment.postId !== postId) throw new AppError(422, IdempotencyErrors.reused);
        return { comment, post: await posts.card(postId, viewer) };
      }
      posts.changed(postId);
      firstComments.forget(postId);
      const [comment, post] = await Promise.all([
        madeComment(outcome.row, viewer),
        posts.asMarkedPost(outcome.postRow, viewer),
      ]);
      return { comment, post };
    },

    async edit(
      viewer: Viewer,
      postId: string,
      commentId: string,
      text: string,
    ): Promise<{ comment: Comment; post: Post }> {
      const edited = await transact(async (trx, events) => {
        const { comment } = await lockedCommentOnPost(trx, postId, commentId, viewer);
        if (comment.user_id !== viewer.id) throw badRequest(ErrorMessages.editCommentNotOwner);
        const found = await entities.resolve(trx, text);
        await repo.updateCommentText(trx, commentId, text, encodeEntities(found), Date.now());
        const mentioned = await entities.record(trx, 'comment', {
          id: commentId,
          authorId: viewer.id,
          createdAt: comment.created_at,
          entities: found,
          fresh: false,
        });
        events.record({
          type: 'comment.edited',
          payload: { postId, commentId, userId: viewer.id },
        });
        recordMentions(events, { postId, commentId, authorId: viewer.id }, mentioned);
        return {
          comment: await card(commentId, viewer, trx),
          post: await posts.card(postId, viewer, trx),
        };
      });
      firstComments.forget(postId);
      return edited;
    },

    /** The comment's author or the post's author may delete it. */
    async remove(viewer: Viewer, postId: string, commentId: string): Promise<{ post: Post }> {
      await transact(async (trx, events) => {
        const { post, comment } = await lockedCommentOnPost(trx, postId, commentId, viewer);
        if (comment.user_id !== viewer.id && post.user_id !== viewer.id) {
          throw badRequest(ErrorMessages.deleteCommentNotOwner);
        }
        if (!(await repo.deleteComment(trx, commentId)))
          throw notFound(ErrorMessages.commentNotFound);
        await posts.adjustCommentCount(trx, postId, -1);
        events.record({
          type: 'comment.deleted',
          payload: {
            postId,
            commentId,
            postAuthorId: post.user_id,
            userId: comment.user_id,
            commentCount: post.comment_count - 1,
          },
        });
      });
      posts.changed(postId);
      firstComments.forget(postId);
      return { post: await posts.card(postId, viewer) };
    },

    /** A vote replaces the member's opposite vote; the same vote twice is refused. */
    async vote(
      viewer: Viewer,
      postId: string,
      commentId: string,
      direction: VoteDirection,
    ): Promise<Comment> {
      const value = direction === 'up' ? 1 : -1;
      const voted = await transact(async (trx, events) => {
        const { comment } = await lockedCommentOnPost(trx, postId, commentId, viewer);
        // The post's author was checked with the post; no vote reaches a blocked commenter either.
        if (
          comment.user_id !== null &&
          (await hidden.isBlockedEitherWay(trx, viewer.id, comment.user_id))
        ) {
          throw notFound(ErrorMessages.commentNotFound);
        }
        const one = { up: direction === 'up' ? 1 : 0, down: direction === 'down' ? 1 : 0 };
        if (await repo.insertVote(trx, commentId, viewer.id, value)) {
          await repo.adjustVoteCounts(trx, commentId, one);
        } else if (await repo.flipVote(trx, commentId, viewer.id, value)) {
          await repo.adjustVoteCounts(trx, commentId, {
            up: one.up - one.down,
            down: one.down - one.up,
          });
        } else {
          throw badRequest(
            direction === 'up' ? ErrorMessages.alreadyUpvoted : ErrorMessages.alreadyDownvoted,
          );
        }
        const counted = await card(commentId, viewer, trx);
        events.record({
          type: 'comment.voted',
          payload: {
            postId,
            commentId,
            userId: viewer.id,
            upvoteCount: counted.votes.upvoteCount,
            downvoteCount: counted.votes.downvoteCount,
          },
        });
        return counted;
      });
      firstComments.forget(postId);
      votes.forget(viewer.id);
      return voted;
    },
  };
}

export type CommentsService = ReturnType<typeof createCommentsService>;
