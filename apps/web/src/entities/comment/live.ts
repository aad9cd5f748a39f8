import type { Comment } from '@perch/contract';
import type { QueryClient } from '@tanstack/react-query';
import type { LiveEventHandler, LiveEventHandlersFor } from '../../shared/live/liveEventHandlers';
import { updatePostInCaches } from '../post/postCache';
import { commentKeys, type CommentPages } from './comments.queries';

function setCommentCount(queryClient: QueryClient, postId: string, commentCount: number): void {
  updatePostInCaches(queryClient, postId, (post) =>
    post.commentCount === commentCount ? post : { ...post, commentCount },
  );
}

function cachedComments(queryClient: QueryClient, postId: string): Comment[] | undefined {
  return queryClient
    .getQueryData<CommentPages>(commentKeys.post(postId))
    ?.pages.flatMap((page) => page.comments);
}

const holds = (data: CommentPages | undefined, commentId: string): data is CommentPages =>
  data?.pages.some((page) => page.comments.some((item) => item._id === commentId)) === true;

function updateCachedComment(
  queryClient: QueryClient,
  postId: string,
  commentId: string,
  update: (comment: Comment) => Comment,
): void {
  queryClient.setQueryData<CommentPages>(commentKeys.post(postId), (data) =>
    holds(data, commentId)
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            comments: page.comments.map((item) => (item._id === commentId ? update(item) : item)),
          })),
        }
      : data,
  );
}

const onCommentAdded: LiveEventHandler<'comment.added'> = ({ payload }, { queryClient }) => {
  const { postId, commentId, commentCount } = payload;
  setCommentCount(queryClient, postId, commentCount);
  const comments = cachedComments(queryClient, postId);
  if (comments && !comments.some((comment) => comment._id === commentId)) {
    void queryClient.invalidateQueries({ queryKey: commentKeys.post(postId), exact: true });
  }
};

const onCommentEdited: LiveEventHandler<'comment.edited'> = ({ payload }, { queryClient }) => {
  const { postId } = payload;
  if (cachedComments(queryClient, postId)) {
    void queryClient.invalidateQueries({ queryKey: commentKeys.post(postId), exact: true });
  }
};

const onCommentVoted: LiveEventHandler<'comment.voted'> = ({ payload }, { queryClient }) => {
  const { postId, commentId, upvoteCount, downvoteCount } = payload;
  updateCachedComment(queryClient, postId, commentId, (comment) =>
    comment.votes.upvoteCount === upvoteCount && comment.votes.downvoteCount === downvoteCount
      ? comment
      : { ...comment, votes: { ...comment.votes, upvoteCount, downvoteCount } },
  );
};

const onCommentDeleted: LiveEventHandler<'comment.deleted'> = ({ payload }, { queryClient }) => {
  const { postId, commentId, commentCount } = payload;
  setCommentCount(queryClient, postId, commentCount);
  queryClient.setQueryData<CommentPages>(commentKeys.post(postId), (data) => {
    if (!holds(data, commentId)) return data;
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        comments: page.comments.filter((item) => item._id !== commentId),
      })),
    };
  });
};

/** A deleted post's comments go with it. */
const onPostDeleted: LiveEventHandler<'post.deleted'> = ({ payload }, { queryClient }) => {
  queryClient.removeQueries({ queryKey: commentKeys.post(payload.postId), exact: true });
};

/** Comments carry their author's name and avatar: fresh on their next load. */
const onAuthorEdited: LiveEventHandler<'profile.edited'> = (_event, { queryClient }) => {
  void queryClient.invalidateQueries({ queryKey: commentKeys.all, refetchType: 'none' });
};

/** What the events about comments (and the posts and authors they belong to) change. */
export const commentLiveHandlers = {
  'comment.added': onCommentAdded,
  'comment.edited': onCommentEdited,
  'comment.voted': onCommentVoted,
  'comment.deleted': onCommentDeleted,
  'post.deleted': onPostDeleted,
  'profile.edited': onAuthorEdited,
} satisfies LiveEventHandlersFor<
  | 'comment.added'
  | 'comment.edited'
  | 'comment.voted'
  | 'comment.deleted'
  | 'post.deleted'
  | 'profile.edited'
>;
