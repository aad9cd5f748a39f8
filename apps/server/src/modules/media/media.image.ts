import {
  MEDIA_AVATAR_SIDE,
  MEDIA_MAX_ANIMATION_PIXELS,
  MEDIA_MAX_PIXELS,
  MEDIA_POST_MAX_SIDE,
  MEDIA_STORED_TYPE,
  MEDIA_THUMBNAIL_SIDE,
  MediaMessages,
  type MediaPurpose,
} from '@perch/contract';
import { encode as encodeBlurhash } from 'blurhash';
import { imageSize } from 'image-size';
import type createSharp from 'sharp';
import type { Metadata, Sharp } from 'sharp';
import { AppError, badRequest } from '../../lib/errors';
import { createTurns } from './media.turns';

type CreateSharp = typeof createSharp;

let loadingSharp: Promise<CreateSharp> | undefined;

/**
 * libvips keeps its last 100 operations (up to 50 MB of pixels) for reuse, which only pays when
 * the same file is read again: every upload is a new one. One thread per image, as glibc gives
 * every thread an arena of its own that keeps the decoded pixels' memory once they are freed.
 */
function configureSharp(sharp: CreateSharp): CreateSharp {
  sharp.cache(false);
  sharp.concurrency(1);
  return sharp;
}

/**
 * sharp and its native libraries take about 20 MB of the process's memory once loaded: a server
 * that is not handed an image does without them.
 */
function loadSharp(): Promise<CreateSharp> {
  loadingSharp ??= import('sharp').then(
    (module) => configureSharp(module.default),
    (error: unknown) => {
      loadingSharp = undefined;
      throw error;
    },
  );
  return loadingSharp;
}

export type ImageKind = 'jpeg' | 'png' | 'webp' | 'gif';

/**
 * What the bytes are, from their signature alone: names and declared types are whatever the
 * client says and decide nothing.
 */
export function sniffImageKind(data: Uint8Array): ImageKind | null {
  const startsWith = (bytes: number[], at = 0) =>
    data.length >= at + bytes.length && bytes.every((byte, i) => data[at + i] === byte);
  if (startsWith([0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  // "GIF87a" or "GIF89a"
  if (startsWith([0x47, 0x49, 0x46, 0x38]) && (data[4] === 0x37 || data[4] === 0x39)) {
    return data[5] === 0x61 ? 'gif' : null;
  }
  // "RIFF" <size> "WEBP"
  if (startsWith([0x52, 0x49, 0x46, 0x46]) && startsWith([0x57, 0x45, 0x42, 0x50], 8)) {
    return 'webp';
  }
  return null;
}

export interface ProcessedImage {
  /** The re-encoded image: EXIF orientation applied, all metadata gone. */
  data: Buffer;
  thumbnail: Buffer;
  mime: typeof MEDIA_STORED_TYPE;
  extension: 'webp';
  /** Of one frame, for animations. */
  width: number;
  height: number;
  animated: boolean;
  /** A few dozen characters that draw a blurred likeness of the image before (or instead of) it. */
  blurhash: string;
}

/** The side of the pixels a blurhash is computed from: enough for its few components. */
const BLURHASH_SIDE = 32;

/**
 * The image's blurhash, from its thumbnail scaled down further: 4 × 3 components for a wide image,
 * 3 × 4 for a tall one, as Mastodon computes them.
 */
async function blurhashOf(sharp: CreateSharp, thumbnail: Buffer): Promise<string> {
  const { data, info } = await sharp(thumbnail)
    .resize({ width: BLURHASH_SIDE, height: BLURHASH_SIDE, fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const wide = info.width >= info.height;
  return encodeBlurhash(
    new Uint8ClampedArray(data.buffer, data.byteOffset, data.length),
    info.width,
    info.height,
    wide ? 4 : 3,
    wide ? 3 : 4,
  );
}

const WEBP_QUALITY = 82;
const THUMBNAIL_QUALITY = 75;

/**
 * Images decoded and re-encoded at once, across all uploads of the process; the rest wait their
 * turn. See docs/decisions/0032-image-memory.md for the figures behind one.
 */
export const MAX_CONCURRENT_DECODES = 1;
const decodes = createTurns(MAX_CONCURRENT_DECODES);

/** Decodes running and waiting now, the most that ever ran at once, and how many ran. */
export const decodeStats = () => decodes.stats();

const unsupported = () => new AppError(415, MediaMessages.unsupportedType);
const unreadable = () => badRequest(MediaMessages.unreadable);

function endsWithGifTrailer(data: Buffer): boolean {
  // Some encoders pad the file after the trailer with zeros.
  let end = data.length - 1;
  while (end > 0 && data[end] === 0x00) end -= 1;
  return data[end] === 0x3b;
}

/**
 * The size the header claims, read without any decoder (image-size parses headers only): the
 * decoders have limits of their own and would call a 60000 × 60000 header unreadable.
 */
function claimedPixels(input: Buffer): number | null {
  try {
    const { width, height } = imageSize(input);
    return width * height;
  } catch {
    return null;
  }
}

function isPixelLimitError(error: unknown): boolean {
  return error instanceof Error && /pixel limit/i.test(error.message);
}

/**
 * Checks an upload and re-encodes it for storage. Every image becomes WebP: it keeps transparency
 * and animation, is smaller than JPEG, PNG and GIF at the same quality, and every browser Perch
 * supports shows it. Animated GIFs and WebPs stay animated; thumbnails show the first frame.
 *
 * Throws AppError 415 for anything but JPEG, PNG, WebP and GIF, 413 for images over the pixel
 * limits (read from the header, before anything is decoded) and 400 for damaged images.
 */
export async function processImage(input: Buffer, purpose: MediaPurpose): Promise<ProcessedImage> {
  const kind = sniffImageKind(input);
  if (!kind) throw unsupported();
  // The GIF decoder shows as many frames as arrived; a cut-off GIF lacks its closing byte.
  if (kind === 'gif' && !endsWithGifTrailer(input)) throw unreadable();
  const claimed = claimedPixels(input);
  if (claimed !== null && claimed > MEDIA_MAX_PIXELS) {
    throw new AppError(413, MediaMessages.tooManyPixels);
  }

  const sharp = await loadSharp();
  let header: Metadata;
  try {
    header = await sharp(input).metadata();
  } catch {
    throw unreadable();
  }
  if (header.format !== kind) throw unsupported();
  const { width, height } = header;
  const pages = header.pages ?? 1;
  if (width * height > MEDIA_MAX_PIXELS) throw new AppError(413, MediaMessages.tooManyPixels);
  const animated = pages > 1 && (kind === 'gif' || kind === 'webp');
  if (animated && width * height * pages > MEDIA_MAX_ANIMATION_PIXELS) {
    throw new AppError(413, MediaMessages.animationTooLarge);
  }

  return decodes.take(() => encode(sharp, input, purpose, animated));
}

async function encode(
  sharp: CreateSharp,
  input: Buffer,
  purpose: MediaPurpose,
  animated: boolean,
): Promise<ProcessedImage> {
  try {
    let pipeline: Sharp = sharp(input, {
      animated,
      failOn: 'error',
      limitInputPixels: animated ? MEDIA_MAX_ANIMATION_PIXELS : MEDIA_MAX_PIXELS,
    });
    // Applies the EXIF orientation to the pixels; the tag itself goes with the rest of the metadata.
    if (!animated) pipeline = pipeline.rotate();
    pipeline =
      purpose === 'avatar'
        ? pipeline.resize({
            width: MEDIA_AVATAR_SIDE,
            height: MEDIA_AVATAR_SIDE,
            fit: 'cover',
            position: 'centre',
          })
        : pipeline.resize({
            width: MEDIA_POST_MAX_SIDE,
            height: MEDIA_POST_MAX_SIDE,
            fit: 'inside',
            withoutEnlargement: true,
          });
    // sharp writes no metadata (EXIF, XMP, IPTC, ICC) unless asked to: none is asked for.
    const { data, info } = await pipeline
      .webp({ quality: WEBP_QUALITY, effort: 4 })
      .toBuffer({ resolveWithObject: true });

    const thumbnail = await sharp(data, { failOn: 'error' })
      .resize({
        width: MEDIA_THUMBNAIL_SIDE,
        height: MEDIA_THUMBNAIL_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: THUMBNAIL_QUALITY, effort: 4 })
      .toBuffer();

    return {
      data,
      thumbnail,
      blurhash: await blurhashOf(sharp, thumbnail),
      mime: MEDIA_STORED_TYPE,
      extension: 'webp',
      width: info.width,
      height: info.pageHeight ?? info.height,
      animated,
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (isPixelLimitError(error)) {
      throw new AppError(
        413,
        animated ? MediaMessages.animationTooLarge : MediaMessages.tooManyPixels,
      );
    }
    throw unreadable();
  }
}
