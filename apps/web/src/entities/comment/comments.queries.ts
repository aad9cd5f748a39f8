import type { Comment, CommentPage, Post } from '@perch/contract';
import {
  useInfiniteQuery,
  useMutation,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { useRequiredSession } from '../session/SessionProvider';
import { updatePostInCaches } from '../post/postCache';
import { addComment, deleteComment, editComment, fetchCommentPage } from './comments.api';

export const commentKeys = {
  all: ['comments'] as const,
  post: (postId: string) => ['comments', postId] as const,
};

export type CommentPages = InfiniteData<CommentPage>;

/** Toasts about comments, word for word. */
export const commentMessages = {
  addFailed: 'Something went wrong!',
  edited: 'Post edited',
  editFailed: 'Something went wrong',
  deleted: 'Comment deleted',
  deleteFailed: 'Something went wrong',
} as const;

/** A post's comments, oldest first, loaded page by page. */
export function useComments(postId: string) {
  const { token } = useRequiredSession();
  return useInfiniteQuery({
    queryKey: commentKeys.post(postId),
    queryFn: ({ pageParam, signal }) => fetchCommentPage(postId, pageParam, token, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });
}

/** The comments of all loaded pages in order, each once. */
export function flattenComments(data: CommentPages | undefined): Comment[] {
  if (!data) return [];
  const seen = new Set<string>();
  return data.pages
    .flatMap((page) => page.comments)
    .filter((comment) => {
      if (seen.has(comment._id)) return false;
      seen.add(comment._id);
      return true;
    });
}

function updateComments(
  queryClient: QueryClient,
  postId: string,
  update: (comments: Comment[], pageIndex: number, pageCount: number) => Comment[],
): void {
  queryClient.setQueryData<CommentPages>(commentKeys.post(postId), (data) => {
    if (!data) return data;
    return {
      ...data,
      pages: data.pages.map((page, index) => ({
        ...page,
        comments: update(page.comments, index, data.pages.length),
      })),
    };
  });
}

/** The post's comment count changed: show the new one wherever the post is. */
function syncCommentCount(queryClient: QueryClient, post: Post): void {
  updatePostInCaches(queryClient, post._id, (cached) => ({
    ...cached,
    commentCount: post.commentCount,
  }));
}

export function useAddComment(postId: string) {
  const { token } = useRequiredSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['comments', 'add'],
    mutationFn: (text: string) => addComment(postId, text, token),
    onSuccess: ({ comment, post }) => {
      // The newest comment goes last, after those loaded so far.
      updateComments(queryClient, postId, (comments, pageIndex, pageCount) =>
        pageIndex === pageCount - 1 && !comments.some((item) => item._id === comment._id)
          ? [...comments, comment]
          : comments,
      );
      syncCommentCount(queryClient, post);
    },
    onError: () => {
      toast.error(commentMessages.addFailed);
    },
  });
}

export function useEditComment(postId: string) {
  const { token } = useRequiredSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['comments', 'edit'],
    mutationFn: ({ commentId, text }: { commentId: string; text: string }) =>
      editComment(postId, commentId, text, token),
    onSuccess: ({ comment }) => {
      updateComments(queryClient, postId, (comments) =>
        comments.map((item) => (item._id === comment._id ? comment : item)),
      );
      toast.success(commentMessages.edited);
    },
    onError: () => {
      toast.error(commentMessages.editFailed);
    },
  });
}

export function useDeleteComment(postId: string) {
  const { token } = useRequiredSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['comments', 'delete'],
    mutationFn: (commentId: string) => deleteComment(postId, commentId, token),
    onSuccess: ({ commentId, post }) => {
      updateComments(queryClient, postId, (comments) =>
        comments.filter((item) => item._id !== commentId),
      );
      syncCommentCount(queryClient, post);
      toast.success(commentMessages.deleted);
    },
    onError: () => {
      toast.error(commentMessages.deleteFailed);
    },
  });
}
