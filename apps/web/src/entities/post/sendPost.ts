import type { Post } from '@perch/contract';
import type { QueuedPost } from '../../shared/offlineQueue/queueStore';
import { uploadImage } from '../../shared/lib/upload';
import { createPost } from './posts.api';

/** Sends one post: its image first, then the post, under its Idempotency-Key. */
export async function sendPost(
  post: Pick<
    QueuedPost,
    'id' | 'content' | 'image' | 'altText' | 'contentWarning' | 'sensitive' | 'poll' | 'quoteId'
  >,
  token: string,
  onProgress?: (fraction: number) => void,
): Promise<Post> {
  const mediaURL = post.image
    ? (await uploadImage(post.image, { token, purpose: 'post', onProgress })).url
    : null;
  const postData = {
    content: post.content,
    mediaURL,
    ...(mediaURL && post.altText.trim() !== '' ? { mediaAlt: post.altText } : {}),
    ...(post.contentWarning?.trim() ? { contentWarning: post.contentWarning } : {}),
    ...(mediaURL && post.sensitive ? { sensitive: true } : {}),
    ...(post.poll && !mediaURL ? { poll: post.poll } : {}),
    ...(post.quoteId ? { quoteId: post.quoteId } : {}),
  };
  return (await createPost(postData, token, { idempotencyKey: post.id })).post;
}
