import type { Post } from '@perch/contract';
import type { QueryClient } from '@tanstack/react-query';
import type { LiveEventHandler } from '../../shared/live/liveEventHandlers';
import { isPost, isPostPages, updatePostInCaches } from './postCache';
import { postKeys } from './postKeys';

const quotes = (post: Post, postId: string) =>
  post.quote?.state === 'available' && post.quote.post._id === postId;

/** The ids of the cached posts (in lists or on their own) that quote the post with `postId`. */
function cachedQuotesOf(queryClient: QueryClient, postId: string): Set<string> {
  const ids = new Set<string>();
  for (const [, data] of queryClient.getQueriesData({ queryKey: postKeys.all })) {
    const posts = isPostPages(data)
      ? data.pages.flatMap((page) => page.posts)
      : isPost(data)
        ? [data]
        : [];
    for (const post of posts) if (quotes(post, postId)) ids.add(post._id);
  }
  return ids;
}

/** A quoted post deleted: the quotes of it on screen say it is unavailable, as a reload would. */
export const onQuotedPostDeleted: LiveEventHandler<'post.deleted'> = (
  { payload: { postId } },
  { queryClient },
) => {
  for (const id of cachedQuotesOf(queryClient, postId)) {
    updatePostInCaches(queryClient, id, (post) =>
      quotes(post, postId) ? { ...post, quote: { state: 'unavailable' } } : post,
    );
  }
};
