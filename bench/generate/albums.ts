/** Which posts show images, and how many: drawn per post, the same for a seed. */
import { Prng } from '../lib/prng';
import type { Sink } from '../lib/sink';
import type { Posts } from './posts';

/** Share of posts with images, and of those, how many hold more than one. */
const WITH_IMAGES = 0.25;
const ALBUM_SHARE = 0.4;
/** A plausible placeholder (the server computes one per upload). */
const BLURHASH = 'LEHV6nWB2yk8pyo0adR*.7kCMdnj';
const ALTS = ['A bird on a branch', 'The harbour at dusk', 'Bread fresh from the oven', null];

export interface AlbumImage {
  url: string;
  alt: string | null;
  width: number;
  height: number;
  blurhash: string;
}

/** How many images each post holds: none for most, one for many, 2 to 10 for some. */
export function generateImageCounts(seed: string, P: number): Uint8Array {
  const prng = new Prng(seed, 'post-images');
  const counts = new Uint8Array(P);
  for (let i = 0; i < P; i++) {
    if (!prng.chance(WITH_IMAGES)) continue;
    // Albums are mostly small: 2 to 4 images, now and then up to 10.
    counts[i] = !prng.chance(ALBUM_SHARE)
      ? 1
      : prng.chance(0.9)
        ? 2 + prng.int(3)
        : 5 + prng.int(6);
  }
  return counts;
}

/** The images of post `i` (its index names them, so they are the same on every build). */
export function albumOf(i: number, count: number): AlbumImage[] {
  const images: AlbumImage[] = [];
  for (let k = 0; k < count; k++) {
    images.push({
      url: `/media/bench/${i.toString(36)}-${k}.webp`,
      alt: ALTS[(i + k) % ALTS.length] ?? null,
      width: 1200,
      height: k % 2 === 0 ? 900 : 1500,
      blurhash: BLURHASH,
    });
  }
  return images;
}

/** One row per image of a post (post_media), as the server keeps them for media release. */
export async function writePostMedia({
  sink,
  model,
}: {
  sink: Sink;
  model: { posts: Pick<Posts, 'postIds'>; imageCount: Uint8Array };
}): Promise<number> {
  const { postIds } = model.posts;
  const { imageCount } = model;
  const w = sink.writer('post_media', [
    ['post_id', 'text'],
    ['position', 'int4'],
    ['url', 'text'],
  ]);
  for (let i = 0; i < postIds.length; i++) {
    const images = albumOf(i, imageCount[i] ?? 0);
    for (let k = 0; k < images.length; k++) {
      if (w.add(postIds[i] ?? '', k, images[k]?.url ?? '')) await w.flush();
    }
  }
  return w.finish();
}
