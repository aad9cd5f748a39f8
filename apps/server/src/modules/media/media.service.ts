import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  MediaMessages,
  type MediaPurpose,
  type MediaUploadResponse,
  type PublishedEvent,
} from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { DurableConsumer } from '../../platform/events/consumer';
import { badRequest } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { processImage, type ProcessedImage } from './media.image';
import * as repo from './media.repository';
import type { MediaStore } from './media.store';

type Db = Kysely<Database>;

export const MEDIA_URL_PREFIX = '/media/';
/** Uploads nobody uses are kept this long, so that a member may finish writing a post. */
export const DEFAULT_ORPHAN_GRACE_MS = 24 * 60 * 60 * 1000;

/** Something to tell about failures that are not the caller's to handle (a pino logger fits). */
export interface MediaLog {
  warn: (details: object, message: string) => void;
}

// /media/<first two hex digits>/<sha256 of the stored bytes>.<ext>
const UPLOAD_URL = /^\/media\/([0-9a-f]{2})\/([0-9a-f]{64})\.(webp|gif|jpg|png)$/;
const UPLOAD_KEY = /^([0-9a-f]{2})\/([0-9a-f]{64})(\.thumb)?\.(webp|gif|jpg|png)$/;
// The images the demo community is seeded with.
const DEMO_URL = /^\/media\/demo\/[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

interface UploadKeys {
  url: string;
  image: string;
  thumbnail: string;
}

function keysOf(hash: string, extension: string): UploadKeys {
  const image = `${hash.slice(0, 2)}/${hash}.${extension}`;
  return {
    url: MEDIA_URL_PREFIX + image,
    image,
    thumbnail: `${hash.slice(0, 2)}/${hash}.thumb.${extension}`,
  };
}

/** The keys of an upload's image and thumbnail, or null when the URL is no upload of ours. */
function parseUploadUrl(url: string): UploadKeys | null {
  const match = UPLOAD_URL.exec(url);
  if (!match) return null;
  const [, prefix = '', hash = '', extension = ''] = match;
  if (!hash.startsWith(prefix)) return null;
  return keysOf(hash, extension);
}

/** The upload URL a stored key belongs to (an image or its thumbnail), or null. */
function uploadUrlOfKey(key: string): string | null {
  const match = UPLOAD_KEY.exec(key);
  if (!match) return null;
  const [, prefix = '', hash = '', , extension = ''] = match;
  if (!hash.startsWith(prefix)) return null;
  return keysOf(hash, extension).url;
}

export const isUploadUrl = (url: string): boolean => parseUploadUrl(url) !== null;

/** The store key an image URL of ours is kept under (an upload or a demo image), or null. */
export function mediaKeyOf(url: string): string | null {
  const keys = parseUploadUrl(url);
  if (keys) return keys.image;
  return DEMO_URL.test(url) ? url.slice(MEDIA_URL_PREFIX.length) : null;
}
export const isDemoMediaUrl = (url: string): boolean => DEMO_URL.test(url);

/** Where the thumbnail of an uploaded image is served; null for other URLs. */
export function thumbnailUrlOf(url: string): string | null {
  const keys = parseUploadUrl(url);
  return keys ? MEDIA_URL_PREFIX + keys.thumbnail : null;
}

export interface UploadInput {
  ownerId: string;
  data: Buffer;
  purpose: MediaPurpose;
  now?: number;
}

/**
 * Checks and re-encodes an image, stores it under the hash of its bytes and records who uploaded
 * it. The same picture uploaded twice gets the same URL. Nothing is written for a refused image.
 */
export async function uploadMedia(
  db: Db,
  store: MediaStore,
  input: UploadInput,
): Promise<MediaUploadResponse> {
  const image = await processImage(input.data, input.purpose);
  const hash = createHash('sha256').update(image.data).digest('hex');
  const keys = keysOf(hash, image.extension);
  const thumbnailURL = MEDIA_URL_PREFIX + keys.thumbnail;

  await repo.inTransaction(db, async (trx) => {
    // Shared: uploads of one image may run together, but not beside its release.
    await repo.lockMediaUrl(trx, keys.url, 'shared');
    await store.put(keys.image, image.data, image.mime);
    await store.put(keys.thumbnail, image.thumbnail, image.mime);
    await repo.upsertMedia(trx, {
      id: newId(),
      user_id: input.ownerId,
      url: keys.url,
      thumbnail_url: thumbnailURL,
      mime: image.mime,
      bytes: image.data.length,
      width: image.width,
      height: image.height,
      blurhash: image.blurhash,
      created_at: input.now ?? Date.now(),
    });
  });

  return {
    url: keys.url,
    thumbnailURL,
    width: image.width,
    height: image.height,
    blurhash: image.blurhash,
    mimeType: image.mime,
    size: image.data.length,
  };
}

/** A stored image's address and size. */
export interface StoredImage {
  url: string;
  width: number;
  height: number;
}

/**
 * Stores an image already checked and re-encoded (processImage) without an upload record, in the
 * caller's transaction, which must also write what shows it (a preview card): the lock keeps a
 * concurrent release of the same picture from removing the files before that commits. An image no
 * one shows is the sweep's once the grace period is over.
 */
export async function storeUnrecorded(
  trx: Db,
  store: MediaStore,
  image: ProcessedImage,
): Promise<StoredImage> {
  const hash = createHash('sha256').update(image.data).digest('hex');
  const keys = keysOf(hash, image.extension);
  await repo.lockMediaUrl(trx, keys.url, 'shared');
  await store.put(keys.image, image.data, image.mime);
  await store.put(keys.thumbnail, image.thumbnail, image.mime);
  return { url: keys.url, width: image.width, height: image.height };
}

/**
 * Passes null, an image this member uploaded, and the demo images the demo data shows; anything else throws
 * AppError 400 'Images must be uploaded to Perch first.'. Another member's upload is refused too:
 * uploading the same picture gives this member its own claim to the same URL.
 *
 * Call it only when a post's or profile's image changes, in the transaction that writes the new
 * URL, so that a concurrent release cannot remove the image in between.
 */
export async function assertUsableMediaUrl(
  db: Db,
  viewerId: string,
  url: string | null | undefined,
): Promise<void> {
  if (url === null || url === undefined) return;
  if (isDemoMediaUrl(url)) {
    // Demo images exist only as far as the demo data shows them.
    if (await repo.isMediaReferenced(db, url)) return;
    throw badRequest(MediaMessages.notUploaded);
  }
  if (!isUploadUrl(url)) throw badRequest(MediaMessages.notUploaded);
  await repo.lockMediaUrl(db, url, 'shared');
  const row = await repo.findMediaOf(db, viewerId, url);
  if (!row) throw badRequest(MediaMessages.notUploaded);
}

async function removeFiles(
  store: MediaStore,
  keys: UploadKeys,
  log: MediaLog | undefined,
): Promise<void> {
  for (const key of [keys.image, keys.thumbnail]) {
    try {
      await store.delete(key);
    } catch (error) {
      // The row is gone; the sweep's pass over the store removes the file later.
      log?.warn({ err: error, key }, 'could not remove a media file');
    }
  }
}

/**
 * Removes an uploaded image (its file, thumbnail and every upload record) when no post and no
 * profile shows it any more (with `keepUploaded`, and no member holds an upload of it); answers
 * whether it did. Demo images, foreign and null URLs are left
 * alone. Called after the transaction that dropped the reference has committed (deleting a post,
 * changing its image or an avatar): the media consumer does, for the events of those changes.
 */
export async function releaseMediaIfUnused(
  db: Db,
  store: MediaStore,
  url: string | null | undefined,
  options: { log?: MediaLog; keepUploaded?: boolean } = {},
): Promise<boolean> {
  if (url === null || url === undefined) return false;
  const keys = parseUploadUrl(url);
  if (!keys) return false;
  return repo.inTransaction(db, async (trx) => {
    await repo.lockMediaUrl(trx, url, 'exclusive');
    if (await repo.isMediaReferenced(trx, url)) return false;
    // Someone else's upload of the same picture: theirs to use, or the sweep's after the grace.
    if (options.keepUploaded && (await repo.hasMediaRow(trx, url))) return false;
    await repo.deleteMediaRows(trx, url);
    await removeFiles(store, keys, options.log);
    return true;
  });
}

export interface SweepOptions {
  /** Grace period: uploads younger than this are kept even when unused. Default 24 hours. */
  olderThanMs?: number;
  now?: number;
  /** At most this many images are removed in one run; the next run goes on. Default 1000. */
  limit?: number;
  /** Also walk the store for files no row records (left by failed writes). Default true. */
  scanStore?: boolean;
  log?: MediaLog;
}

export interface SweepResult {
  /** Images removed with their records. */
  removed: number;
  /** Stored images that had no record (with their thumbnails). */
  removedUnrecorded: number;
  /** Leftovers of writes that never finished. */
  removedIncomplete: number;
}

/**
 * Removes uploads older than the grace period that no post, profile or preview card uses: first those the media
 * table records, then files in the store that no row records. Demo images are never touched.
 */
export async function sweepOrphanMedia(
  db: Db,
  store: MediaStore,
  options: SweepOptions = {},
): Promise<SweepResult> {
  const cutoff = (options.now ?? Date.now()) - (options.olderThanMs ?? DEFAULT_ORPHAN_GRACE_MS);
  const limit = options.limit ?? 1000;
  const result: SweepResult = { removed: 0, removedUnrecorded: 0, removedIncomplete: 0 };

  for (const url of await repo.findOrphanMediaUrls(db, cutoff, limit)) {
    const keys = parseUploadUrl(url);
    if (!keys) continue;
    const removed = await db.transaction().execute(async (trx) => {
      await repo.lockMediaUrl(trx, url, 'exclusive');
      // Looked at again under the lock: it may have been posted or uploaded again meanwhile.
      if (await repo.hasMediaRow(trx, url, cutoff)) return false;
      if (await repo.isMediaReferenced(trx, url)) return false;
      await repo.deleteMediaRows(trx, url);
      await removeFiles(store, keys, options.log);
      return true;
    });
    if (removed) result.removed += 1;
  }

  if (options.scanStore ?? true) {
    const candidates = new Set<string>();
    for await (const object of store.list()) {
      if (object.modifiedAt >= cutoff) continue;
      const url = uploadUrlOfKey(object.key);
      if (url) candidates.add(url);
      if (candidates.size >= limit) break;
    }
    for (const url of candidates) {
      const keys = parseUploadUrl(url);
      if (!keys) continue;
      const removed = await db.transaction().execute(async (trx) => {
        await repo.lockMediaUrl(trx, url, 'exclusive');
        if (await repo.hasMediaRow(trx, url)) return false;
        if (await repo.isMediaReferenced(trx, url)) return false;
        await removeFiles(store, keys, options.log);
        return true;
      });
      if (removed) result.removedUnrecorded += 1;
    }
    result.removedIncomplete = await store.removeIncomplete(cutoff);
  }
  return result;
}

/** An event's list of images; events recorded before albums have none, only their one image. */
const listed = (urls: readonly string[] | undefined): readonly string[] => urls ?? [];

/** The images each event let go of: every image an edit dropped or a deleted post held. */
function releasedUrlsOf(event: PublishedEvent): readonly (string | null)[] {
  switch (event.type) {
    case 'post.edited':
      return [event.payload.previousMediaURL, ...listed(event.payload.previousMediaURLs)];
    case 'post.deleted':
      return [event.payload.mediaURL, ...listed(event.payload.mediaURLs)];
    case 'profile.edited':
      return [event.payload.previousAvatarURL];
    default:
      return [];
  }
}

export interface MediaServiceDeps {
  db: Db;
  store: MediaStore;
  log: MediaLog;
}

export function createMediaService({ db, store, log }: MediaServiceDeps) {
  /** Frees images that posts and profiles stopped using, once the change committed. */
  const consumer: DurableConsumer = {
    name: 'media',
    types: new Set(['post.edited', 'post.deleted', 'profile.edited', 'member.deleted']),
    async handle(trx, events) {
      const urls = new Set(events.flatMap(releasedUrlsOf).filter((url) => url !== null));
      for (const url of urls) await releaseMediaIfUnused(trx, store, url, { log });
      // A deleted account's images: its upload records went with it, so a record left is
      // another member's, who uploaded the same picture and may be about to post it.
      for (const event of events) {
        if (event.type !== 'member.deleted') continue;
        for (const url of event.payload.mediaURLs) {
          await releaseMediaIfUnused(trx, store, url, { log, keepUploaded: true });
        }
      }
    },
  };

  return {
    upload: (input: UploadInput) => uploadMedia(db, store, input),
    /**
     * Checks and re-encodes an image fetched from elsewhere as a post's image is uploaded (EXIF
     * and every other metadata dropped, sides capped); throws AppError for what is no image.
     */
    processFetched: (data: Buffer) => processImage(data, 'post'),
    /** See storeUnrecorded. */
    storeUnrecorded: (trx: Db, image: ProcessedImage) => storeUnrecorded(trx, store, image),
    assertUsable: assertUsableMediaUrl,
    /** The size and blurhash of uploaded images by URL, read in `db` (a transaction); others left out. */
    async factsOf(db: Db, urls: readonly string[]): Promise<Map<string, ImageFacts>> {
      const rows = urls.length === 0 ? [] : await repo.mediaFacts(db, [...new Set(urls)]);
      return new Map(rows.map(({ url, ...facts }) => [url, facts]));
    },
    /** A member's own upload of an image, by its URL; null when they uploaded no such image. */
    async uploadOf(ownerId: string, url: string): Promise<OwnUpload | null> {
      const row = await repo.findMediaOf(db, ownerId, url);
      if (!row) return null;
      const { thumbnail_url: thumbnailURL, width, height, blurhash } = row;
      return { url: row.url, thumbnailURL, width, height, blurhash };
    },
    /** Whether an image of ours is stored, by its URL. */
    async has(url: string): Promise<boolean> {
      const key = mediaKeyOf(url);
      return key !== null && (await store.exists(key));
    },
    /**
     * The width, height, type and bytes of images uploads recorded, by URL; others (the demo
     * images) are left out.
     */
    async sizesOf(urls: readonly string[]): Promise<Map<string, MediaSize>> {
      const unique = [...new Set(urls)];
      const rows = unique.length === 0 ? [] : await repo.mediaSizes(db, unique);
      return new Map(
        rows.map(({ url, width, height, mime, bytes }) => [url, { width, height, mime, bytes }]),
      );
    },
    /** An image of ours as a stream, by its URL; null when it is not ours or not there. */
    async read(url: string): Promise<Readable | null> {
      const key = mediaKeyOf(url);
      return key === null ? null : store.read(key);
    },
    sweep: (options: Omit<SweepOptions, 'log'> = {}) =>
      sweepOrphanMedia(db, store, { ...options, log }),
    consumer,
  };
}

export type MediaService = ReturnType<typeof createMediaService>;

/** What an upload's record says of the stored image. */
export interface MediaSize {
  width: number;
  height: number;
  mime: string;
  bytes: number;
}

/** A member's upload as its record keeps it. */
export interface OwnUpload {
  url: string;
  thumbnailURL: string;
  width: number;
  height: number;
  blurhash: string | null;
}

/** What an upload's record says of an image a post shows. */
export interface ImageFacts {
  width: number;
  height: number;
  blurhash: string | null;
}
