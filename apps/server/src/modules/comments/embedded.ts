import type { Comment } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import type { CommentsServiceDeps } from './comments.deps';
import { toComment, withViewerVote } from './comments.mapper';
import type * as repo from './comments.repository';
import { readFirstComments, type Commented } from './first-comments';

/** The comments as `viewer` sees them, with their own votes. */
async function withVotesOf(
  { votes }: Pick<CommentsServiceDeps, 'votes'>,
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
 * Each post's first comments, oldest first, as posts embed them (`comments`): the kept ones (see
 * first-comments.ts) with the reader's own votes on them, and those of posts whose kept comments
 * show a member the reader hides read again without them.
 */
export async function firstCommentsOf(
  deps: Pick<CommentsServiceDeps, 'reads' | 'firstComments' | 'hidden' | 'votes'>,
  posts: readonly Commented[],
  viewer: Viewer | null,
): Promise<Map<string, Comment[]>> {
  const { reads, firstComments, hidden } = deps;
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
    withVotesOf(deps, viewer, threads),
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
}
