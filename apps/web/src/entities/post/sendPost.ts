import type { Post } from '@perch/contract';
import type { QueuedImage, QueuedPost } from '../../shared/offlineQueue/queueStore';
import { uploadImage } from '../../shared/lib/upload';
import { createPost } from './posts.api';

type SentPost = Pick<
  QueuedPost,
  | 'id'
  | 'content'
  | 'image'
  | 'altText'
  | 'contentWarning'
  | 'sensitive'
  | 'poll'
  | 'quoteId'
  | 'media'
>;

/** A description as sent: null for none. */
const altToSend = (alt: string) => (alt.trim() === '' ? null : alt);

/** One image of an album to send: a file to upload, or an image the post already holds. */
export type AlbumImage = QueuedImage | { url: string; alt: string };

/**
 * Uploads an album's new images one after the other, so that they keep their order; an image
 * the post already holds is sent by its address.
 */
export async function uploadAlbum(
  images: readonly AlbumImage[],
  token: string,
  onMediaProgress?: (index: number, fraction: number) => void,
): Promise<{ url: string; alt: string | null }[]> {
  const media: { url: string; alt: string | null }[] = [];
  for (const [index, image] of images.entries()) {
    if ('url' in image) {
      media.push({ url: image.url, alt: altToSend(image.alt) });
      continue;
    }
    const onProgress =
      onMediaProgress &&
      ((fraction: number) => {
        onMediaProgress(index, fraction);
      });
    const { url } = await uploadImage(image.file, { token, purpose: 'post', onProgress });
    media.push({ url, alt: altToSend(image.alt) });
  }
  return media;
}

/** Sends one post: its images first, then the post, under its Idempotency-Key. */
export async function sendPost(
  post: SentPost,
  token: string,
  onProgress?: (fraction: number) => void,
  onMediaProgress?: (index: number, fraction: number) => void,
): Promise<Post> {
  const album = post.media?.length ? await uploadAlbum(post.media, token, onMediaProgress) : null;
  const mediaURL = post.image
    ? (await uploadImage(post.image, { token, purpose: 'post', onProgress })).url
    : null;
  const hasImage = mediaURL !== null || album !== null;
  const postData = {
    content: post.content,
    // An album is sent as `media` alone; the single image of older queued posts as mediaURL.
    ...(album ? { media: album } : { mediaURL }),
    ...(mediaURL && post.altText.trim() !== '' ? { mediaAlt: post.altText } : {}),
    ...(post.contentWarning?.trim() ? { contentWarning: post.contentWarning } : {}),
    ...(hasImage && post.sensitive ? { sensitive: true } : {}),
    ...(post.poll && !hasImage ? { poll: post.poll } : {}),
    ...(post.quoteId ? { quoteId: post.quoteId } : {}),
  };
  return (await createPost(postData, token, { idempotencyKey: post.id })).post;
}
