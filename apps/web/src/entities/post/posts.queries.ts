import { tagsOf, type PollInput, type Post, type PostInput, type PostSort } from '@perch/contract';
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import toast from 'react-hot-toast';
import { enqueue } from '../../shared/offlineQueue/postQueue';
import { isUnreachable } from '../../shared/offlineQueue/retry';
import type { QueuedImage } from '../../shared/offlineQueue/queueStore';
import { useRequiredSession } from '../session/SessionProvider';
import { tagKeys } from '../tag/tags.queries';
import { postMessages } from './messages';
import { editPost, fetchPost } from './posts.api';
import { postFeedOptions } from './postFeed';
import { sendPost, uploadAlbum, type AlbumImage } from './sendPost';
import { insertPostIntoLists, updatePostInCaches, withEdits } from './postCache';
import { parseListKey, postKeys, type FeedSource } from './postKeys';
import {
  deleteWithUndo,
  finishLeftoverDeletes,
  sendScheduledDeletes,
  type DeleteContext,
} from './undoableDelete';

/**
 * A list of posts, loaded page by page with the cursor of the previous page; idle while
 * `enabled` is false.
 */
export function usePostFeed(source: FeedSource, sort: PostSort, { enabled = true } = {}) {
  const { token } = useRequiredSession();
  return useInfiniteQuery({ ...postFeedOptions(source, sort, token), enabled });
}

/** One post by id (a notification leads to it); kept in step with the lists it is in. */
export function usePost(postId: string) {
  const { token } = useRequiredSession();
  return useQuery({
    queryKey: postKeys.detail(postId),
    queryFn: async ({ signal }) => (await fetchPost(postId, token, signal)).post,
  });
}

/** Member data showing a post count (e.g. a profile) is stale once the member posts or deletes. */
function invalidateMemberCounts(queryClient: QueryClient, username: string): void {
  void queryClient.invalidateQueries({
    predicate: ({ queryKey }) => queryKey[0] === 'users' && queryKey.includes(username),
  });
}

/**
 * Tag pages show a post count and tag lists are ordered by use: after a post with these tags is
 * written or deleted they are out of date, so the loaded ones load again.
 */
function invalidateTagViews(queryClient: QueryClient, tags: readonly string[]): void {
  if (tags.length === 0) return;
  void queryClient.invalidateQueries({
    queryKey: postKeys.lists(),
    predicate: ({ queryKey }) => {
      const source = parseListKey(queryKey)?.source;
      return source?.kind === 'tag' && tags.includes(source.tag);
    },
  });
  void queryClient.invalidateQueries({ queryKey: tagKeys.all });
}

/** A post's content warning ('' for none) and whether its image is marked sensitive. */
export interface PostWarnings {
  contentWarning: string;
  sensitive: boolean;
}

export interface PublishVariables extends PostWarnings {
  content: string;
  image: File | null;
  /** The image's description ('' for none). */
  altText: string;
  /** The post it quotes (absent: none). */
  quoteId?: string;
  onProgress?: (fraction: number) => void;
  /** The album's images in order (absent or empty: none, or the single `image`). */
  media?: QueuedImage[];
  /** Called with the share of the album's image at `index` uploaded so far. */
  onMediaProgress?: (index: number, fraction: number) => void;
  /** The post's poll, fixed once posted (null: none; a post has an image or a poll). */
  poll?: PollInput | null;
}

/** A post the member just made joins their lists, and the counts and tags it changes. */
export function showCreatedPost(queryClient: QueryClient, post: Post, username: string): void {
  insertPostIntoLists(
    queryClient,
    post,
    (source) => source.kind === 'home' || (source.kind === 'user' && source.username === username),
  );
  invalidateMemberCounts(queryClient, username);
  invalidateTagViews(queryClient, tagsOf(post.entities));
}

/**
 * Creates a post (uploading its image first) and puts it at its place in the member's lists.
 * With no connection it waits in the offline queue (features/offlineQueue) and is sent when the connection
 * returns; every try carries the same Idempotency-Key, so it is made once.
 */
export function useCreatePost() {
  const { token, user } = useRequiredSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['posts', 'create'],
    // Not paused while offline: an unreachable server queues the post (below).
    networkMode: 'always',
    mutationFn: async ({ onProgress, onMediaProgress, ...written }: PublishVariables) => {
      const post = {
        id: crypto.randomUUID(),
        memberId: user._id,
        ...written,
        queuedAt: Date.now(),
        token,
      };
      try {
        return { post: await sendPost(post, token, onProgress, onMediaProgress) };
      } catch (error) {
        if (!isUnreachable(error)) throw error;
        await enqueue(post);
        return { post: null };
      }
    },
    onSuccess: ({ post }) => {
      if (post === null) {
        toast(postMessages.queued, { id: 'post-queued' });
        return;
      }
      showCreatedPost(queryClient, post, user.username);
      toast.success(postMessages.created);
    },
    onError: () => {
      toast.error(postMessages.createFailed);
    },
  });
}

export interface EditVariables extends PostWarnings {
  post: Post;
  content: string;
  /** The album as it should be, in order, each image with its description ('' for none). */
  media: readonly AlbumImage[];
  /** Called with the share of the album's new image at `index` uploaded so far. */
  onMediaProgress?: (index: number, fraction: number) => void;
}

/** Whether `media` is the post's album as it is: the same images in order, described alike. */
export function isPostAlbum(post: Post, media: readonly AlbumImage[]): boolean {
  return (
    media.length === post.media.length &&
    media.every((image, index) => {
      const held = post.media[index];
      return 'url' in image && image.url === held?.url && image.alt.trim() === (held.alt ?? '');
    })
  );
}

/** Saves an edited post (uploading its new images first) and updates it everywhere. */
export function useEditPost() {
  const { token } = useRequiredSession();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['posts', 'edit'],
    mutationFn: async (variables: EditVariables) => {
      const { post, content, media, onMediaProgress } = variables;
      const postData: PostInput = { content };
      // Sent only when they change, as the description is.
      if (variables.contentWarning !== (post.contentWarning ?? '')) {
        postData.contentWarning = variables.contentWarning;
      }
      if (variables.sensitive !== post.sensitive) postData.sensitive = variables.sensitive;
      // Sent only when it changes: the whole album, in its new order.
      if (!isPostAlbum(post, media)) {
        postData.media = await uploadAlbum(media, token, onMediaProgress);
      }
      return editPost(post._id, postData, token);
    },
    onSuccess: ({ post }, { post: before }) => {
      updatePostInCaches(queryClient, post._id, (cached) => withEdits(cached, post));
      invalidateTagViews(queryClient, tagsOf([...before.entities, ...post.entities]));
      toast.success(postMessages.edited);
    },
    onError: () => {
      toast.error(postMessages.editFailed);
    },
  });
}

/** The delete context of the signed-in member: their token, the cache, and what a delete changes. */
function useDeleteContext(): DeleteContext {
  const { token, user } = useRequiredSession();
  const queryClient = useQueryClient();
  return useMemo(
    () => ({
      queryClient,
      token,
      memberId: user._id,
      afterDelete: (tags: readonly string[]) => {
        invalidateTagViews(queryClient, tags);
        invalidateMemberCounts(queryClient, user.username);
      },
    }),
    [queryClient, token, user._id, user.username],
  );
}

/**
 * Deletes a post with an Undo: it leaves every list at once, and the server deletes it once the
 * Undo window closes (entities/post/undoableDelete.tsx).
 */
export function useDeletePost() {
  const context = useDeleteContext();
  return useCallback(
    (postId: string) => {
      deleteWithUndo(postId, context);
    },
    [context],
  );
}

/**
 * For the signed-in shell: finishes deletes an earlier page left unsent, and sends the open
 * ones when this page goes away.
 */
export function usePendingDeletes(): void {
  const context = useDeleteContext();
  useEffect(() => {
    finishLeftoverDeletes(context);
    window.addEventListener('pagehide', sendScheduledDeletes);
    return () => {
      window.removeEventListener('pagehide', sendScheduledDeletes);
    };
  }, [context]);
}
