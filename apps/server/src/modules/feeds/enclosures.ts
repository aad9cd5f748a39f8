import type { Readable } from 'node:stream';
import { LRUCache } from 'lru-cache';
import type { MediaService } from '../media/media.service';

/** What an enclosure says of a file besides its address. */
export interface ImageDetails {
  type: string;
  length: number;
}

export interface EnclosuresDeps {
  media: Pick<MediaService, 'read' | 'sizesOf'>;
  /** Images whose details are kept. */
  max: number;
}

const TYPE_BY_EXTENSION: Record<string, string> = {
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
};

const typeByExtension = (url: string): string | null =>
  TYPE_BY_EXTENSION[url.slice(url.lastIndexOf('.') + 1).toLowerCase()] ?? null;

async function byteCount(stream: Readable): Promise<number> {
  let length = 0;
  for await (const chunk of stream) length += (chunk as Buffer).length;
  return length;
}

/**
 * The type and size of posts' images, for enclosures. Uploads' come from their records; an image
 * no upload records (the demo images) is measured once by reading it. Both are kept by URL: an
 * upload's URL names the hash of its bytes, so what it points at never changes.
 */
export function createEnclosures({ media, max }: EnclosuresDeps) {
  const kept = new LRUCache<string, ImageDetails>({ max });

  async function measure(url: string): Promise<ImageDetails | null> {
    const type = typeByExtension(url);
    const stream = type === null ? null : await media.read(url);
    if (type === null || stream === null) return null;
    return { type, length: await byteCount(stream) };
  }

  /** Each image's details by URL; an image that is not ours or not stored is left out. */
  return async function detailsOf(urls: readonly string[]): Promise<Map<string, ImageDetails>> {
    const found = new Map<string, ImageDetails>();
    const missing = [...new Set(urls)].filter((url) => {
      const details = kept.get(url);
      if (details) found.set(url, details);
      return !details;
    });
    for (const [url, size] of await media.sizesOf(missing)) {
      found.set(url, { type: size.mime, length: size.bytes });
    }
    for (const url of missing) {
      if (found.has(url)) continue;
      const details = await measure(url);
      if (details) found.set(url, details);
    }
    for (const url of missing) {
      const details = found.get(url);
      if (details) kept.set(url, details);
    }
    return found;
  };
}

export type EnclosureDetails = ReturnType<typeof createEnclosures>;
