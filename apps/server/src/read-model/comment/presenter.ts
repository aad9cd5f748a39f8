import type { Comment } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Viewer } from '../../lib/viewer';
import type { Database } from '../../platform/db/schema';
import { toComment, withViewerVote } from '../../modules/comments/comments.mapper';
import type * as repo from '../../modules/comments/comments.repository';
import { createFirstComments, readFirstComments, type Commented } from './first-comments';
import { createViewerVotes, type ViewerVotes } from './viewer-votes';

type Db = Kysely<Database>;

export type { Commented } from './first-comments';

export interface CommentPresenterDeps {
  /** Where comments are read (a read-only connection on SQLite). */
  reads: Db;
  /** Embedded comments cached, over all posts. */
  maxFirstComments: number;
  /** Viewers' votes cached, over all members. */
  maxVotes: number;
  /** A member with more votes than this is asked the database for each answer instead. */
  maxVotesPerMember: number;
  /** Whose comments a viewer does not see (blocked either way, muted). */
  hiddenFor: (viewerId: string | null) => Promise<readonly string[]>;
}

/** The comments as `viewer` sees them, with their own votes. */
async function withVotesOf(
  votes: ViewerVotes,
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

/**
 * Comments as posts embed them, with the viewer's state (their votes). Modules ask it for views
 * by post; how they are cached is its own, and the invalidation table says which events drop
 * them (`invalidate`).
 */
export function createCommentPresenter(deps: CommentPresenterDeps) {
  const { reads, hiddenFor } = deps;
  const firstComments = createFirstComments({ reads, max: deps.maxFirstComments });
  const votes = createViewerVotes({
    reads,
    maxVotes: deps.maxVotes,
    maxPerMember: deps.maxVotesPerMember,
  });

  return {
    /**
     * Each post's first comments, oldest first, as posts embed them (`comments`): the cached ones
     * with the viewer's own votes on them, and those of posts whose cached comments show a member
     * the viewer hides read again without them.
     */
    async firstCommentsOf(
      posts: readonly Commented[],
      viewer: Viewer | null,
    ): Promise<Map<string, Comment[]>> {
      const [threads, hiddenIds] = await Promise.all([
        firstComments.of(posts),
        hiddenFor(viewer?.id ?? null),
      ]);
      const hides = new Set(hiddenIds);
      const hiding = posts.filter((post) =>
        threads.get(post.id)?.some((comment) => comment.userId && hides.has(comment.userId)),
      );
      for (const post of hiding) threads.delete(post.id);
      const [voted, reread] = await Promise.all([
        withVotesOf(votes, viewer, threads),
        hiding.length > 0
          ? readFirstComments(reads, hiding, { viewerId: viewer?.id ?? null, hidden: hiddenIds })
          : new Map<string, repo.CommentViewRow[]>(),
      ]);
      for (const [postId, rows] of reread) {
        voted.set(
          postId,
          rows.map((row) => toComment(row, viewer)),
        );
      }
      return voted;
    },

    /** What the invalidation table drops, by what an event names. */
    invalidate: {
      /** A comment under the post was added, edited, deleted or voted on; the post went. */
      postChanged: (postId: string): void => {
        firstComments.forget(postId);
      },
      /** The member voted. */
      votesChanged: (userId: string): void => {
        votes.forget(userId);
      },
      /** The member's name or picture changed. */
      authorChanged: (userId: string): void => {
        firstComments.forgetAuthor(userId);
      },
      /** The member left: their votes, and every thread (authors and counts changed). */
      memberDeleted: (userId: string): void => {
        votes.forget(userId);
        firstComments.forgetAll();
      },
    },
  };
}

export type CommentPresenter = ReturnType<typeof createCommentPresenter>;
