import type { Comment, PageQuery } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { FIRST_PAGE_SIZE } from '../posts/posts.service';
import { addComment } from './add';
import type { CommentsServiceDeps } from './comments.deps';
import { deleteComment } from './delete';
import { editComment } from './edit';
import type { Commented } from '../../read-model/comment/presenter';
import { listComments } from './list';
import { voteOnComment, type VoteDirection } from './vote';

export type { CommentsServiceDeps } from './comments.deps';
export type { VoteDirection } from './vote';

/**
 * Comments under posts and the votes on them. Each use case is a file of its own (add.ts,
 * vote.ts, …); this assembles them.
 */
export function createCommentsService(deps: CommentsServiceDeps) {
  const list = (postId: string, viewer: Viewer | null, query: PageQuery) =>
    listComments(deps, postId, viewer, query);
  return {
    list,
    firstCommentsOf: (posts: readonly Commented[], viewer: Viewer | null) =>
      deps.presenter.firstCommentsOf(posts, viewer),
    firstPage: async (postId: string, viewer: Viewer): Promise<Comment[]> =>
      (await list(postId, viewer, { limit: FIRST_PAGE_SIZE })).comments,
    add: (viewer: Viewer, postId: string, text: string, idempotencyKey?: string) =>
      addComment(deps, viewer, postId, text, idempotencyKey),
    edit: (viewer: Viewer, postId: string, commentId: string, text: string) =>
      editComment(deps, viewer, postId, commentId, text),
    remove: (viewer: Viewer, postId: string, commentId: string) =>
      deleteComment(deps, viewer, postId, commentId),
    vote: (viewer: Viewer, postId: string, commentId: string, direction: VoteDirection) =>
      voteOnComment(deps, viewer, postId, commentId, direction),
  };
}

export type CommentsService = ReturnType<typeof createCommentsService>;
