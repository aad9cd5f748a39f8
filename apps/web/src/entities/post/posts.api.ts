import {
  IDEMPOTENCY_HEADER,
  type BookmarkMutationResponse,
  type PostDeleteResponse,
  type PostCreateInput,
  type PostInput,
  type PostMutationResponse,
  type PostPage,
  type PostResponse,
  type PostSort,
  type TagSummary,
} from '@perch/contract';
import { apiRequest } from '../../shared/lib/api';
import { searchPosts } from './search.api';
import { fetchTagPage } from '../tag/tags.api';
import type { FeedSource } from './postKeys';

type FeedListSource = Exclude<FeedSource, { kind: 'tag' } | { kind: 'search' }>;

function listPath(source: FeedListSource): string {
  switch (source.kind) {
    case 'home':
      return '/api/posts/feed';
    case 'explore':
      return '/api/posts/explore';
    case 'liked':
      return '/api/posts/liked';
    case 'bookmarks':
      return '/api/users/bookmark';
    case 'user':
      return `/api/posts/user/${encodeURIComponent(source.username)}`;
    case 'pinned':
      return `/api/posts/user/${encodeURIComponent(source.username)}/pinned`;
  }
}

export interface PageRequest {
  source: FeedSource;
  sort: PostSort;
  cursor: string | null;
  token: string;
  signal?: AbortSignal;
}

/** A page of posts; a tag's pages also carry the tag and its post count. */
export type FeedPage = PostPage & { tag?: TagSummary };

/** One page of a list of posts. Bookmarks (always newest bookmark first) come back in the same shape. */
export async function fetchPostPage({
  source,
  sort,
  cursor,
  token,
  signal,
}: PageRequest): Promise<FeedPage> {
  if (source.kind === 'tag') return fetchTagPage(source.tag, cursor, { token, signal });
  if (source.kind === 'search') {
    return searchPosts({ q: source.q, sort: source.sort, cursor, token, signal });
  }
  if (source.kind === 'pinned') {
    // At most a handful, in pin order: one page, no sort.
    const { posts } = await apiRequest(listPath(source), {
      token,
      signal,
      schema: (s) => s.pinnedPostsSchema,
    });
    return { posts, nextCursor: null };
  }
  const params = new URLSearchParams();
  if (source.kind !== 'bookmarks') params.set('sort', sort);
  if (cursor !== null) params.set('cursor', cursor);
  const query = params.toString();
  const path = `${listPath(source)}${query === '' ? '' : `?${query}`}`;

  if (source.kind === 'bookmarks') {
    const page = await apiRequest(path, { token, signal, schema: (s) => s.bookmarkPageSchema });
    return { posts: page.bookmarks, nextCursor: page.nextCursor };
  }
  return apiRequest(path, { token, signal, schema: (s) => s.postPageSchema });
}

export function fetchPost(
  postId: string,
  token: string,
  signal?: AbortSignal,
): Promise<PostResponse> {
  return apiRequest(`/api/posts/${encodeURIComponent(postId)}`, {
    token,
    signal,
    schema: (s) => s.postResponseSchema,
  });
}

export function createPost(
  postData: PostCreateInput,
  token: string,
  { idempotencyKey }: { idempotencyKey?: string } = {},
): Promise<PostMutationResponse> {
  return apiRequest('/api/posts', {
    method: 'POST',
    body: { postData },
    token,
    headers: idempotencyKey ? { [IDEMPOTENCY_HEADER]: idempotencyKey } : undefined,
    schema: (s) => s.postMutationResponseSchema,
  });
}

export function editPost(
  postId: string,
  postData: PostInput,
  token: string,
): Promise<PostMutationResponse> {
  return apiRequest(`/api/posts/edit/${encodeURIComponent(postId)}`, {
    method: 'POST',
    body: { postData },
    token,
    schema: (s) => s.postMutationResponseSchema,
  });
}

export function deletePost(
  postId: string,
  token: string,
  { keepalive = false } = {},
): Promise<PostDeleteResponse> {
  return apiRequest(`/api/posts/${encodeURIComponent(postId)}`, {
    method: 'DELETE',
    token,
    keepalive,
    schema: (s) => s.postDeleteResponseSchema,
  });
}

export type LikeAction = 'like' | 'dislike';

export function likePost(
  postId: string,
  action: LikeAction,
  token: string,
): Promise<PostMutationResponse> {
  return apiRequest(`/api/posts/${action}/${encodeURIComponent(postId)}`, {
    method: 'POST',
    token,
    schema: (s) => s.postMutationResponseSchema,
  });
}

export type PinAction = 'pin' | 'unpin';

export function pinPost(
  postId: string,
  action: PinAction,
  token: string,
): Promise<PostMutationResponse> {
  return apiRequest(`/api/posts/${action}/${encodeURIComponent(postId)}`, {
    method: 'POST',
    token,
    schema: (s) => s.postMutationResponseSchema,
  });
}

export type RepostAction = 'repost' | 'unrepost';

export function repostPost(
  postId: string,
  action: RepostAction,
  token: string,
): Promise<PostMutationResponse> {
  return apiRequest(`/api/posts/${action}/${encodeURIComponent(postId)}`, {
    method: 'POST',
    token,
    schema: (s) => s.postMutationResponseSchema,
  });
}

export type BookmarkAction = 'add' | 'remove';

export function bookmarkPost(
  postId: string,
  action: BookmarkAction,
  token: string,
): Promise<BookmarkMutationResponse> {
  const verb = action === 'add' ? 'bookmark' : 'remove-bookmark';
  return apiRequest(`/api/users/${verb}/${encodeURIComponent(postId)}`, {
    method: 'POST',
    token,
    schema: (s) => s.bookmarkMutationResponseSchema,
  });
}
