import type { CommentDeleteResponse, CommentMutationResponse, CommentPage } from '@perch/contract';
import { apiRequest } from '../../shared/lib/api';

const id = encodeURIComponent;

/** One page of a post's comments, oldest first. */
export function fetchCommentPage(
  postId: string,
  cursor: string | null,
  token: string,
  signal?: AbortSignal,
): Promise<CommentPage> {
  const query = cursor === null ? '' : `?${new URLSearchParams({ cursor }).toString()}`;
  return apiRequest(`/api/comments/${id(postId)}${query}`, {
    token,
    signal,
    schema: (s) => s.commentPageSchema,
  });
}

export function addComment(
  postId: string,
  text: string,
  token: string,
): Promise<CommentMutationResponse> {
  return apiRequest(`/api/comments/add/${id(postId)}`, {
    method: 'POST',
    body: { commentData: { text } },
    token,
    schema: (s) => s.commentMutationResponseSchema,
  });
}

export function editComment(
  postId: string,
  commentId: string,
  text: string,
  token: string,
): Promise<CommentMutationResponse> {
  return apiRequest(`/api/comments/edit/${id(postId)}/${id(commentId)}`, {
    method: 'POST',
    body: { commentData: { text } },
    token,
    schema: (s) => s.commentMutationResponseSchema,
  });
}

export function deleteComment(
  postId: string,
  commentId: string,
  token: string,
): Promise<CommentDeleteResponse> {
  return apiRequest(`/api/comments/delete/${id(postId)}/${id(commentId)}`, {
    method: 'DELETE',
    token,
    schema: (s) => s.commentDeleteResponseSchema,
  });
}
