import { decodeTime } from 'ulid';
import { z } from 'zod';
import { encodeCursor } from '../lib/cursor';
import { notFound } from '../lib/errors';
import { MastodonMessages } from './auth';

/**
 * How Perch's records are named as Mastodon status ids. A post's status id is the post's id (a
 * 26-character ULID); a reblog's is its repost's id (a ULID as well); a comment's is
 * `<post id>-<comment id>` (53 characters), so it never collides with either and names the post
 * it replies to.
 */
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const COMMENT = /^([0-9A-HJKMNP-TV-Z]{26})-([0-9A-HJKMNP-TV-Z]{26})$/;

export type StatusRef =
  { kind: 'post'; id: string } | { kind: 'comment'; postId: string; commentId: string };

export const isUlid = (value: string): boolean => ULID.test(value);

export const commentStatusId = (postId: string, commentId: string): string =>
  `${postId}-${commentId}`;

/** What a status id names; 404 `Record not found` when it is no id of Perch's. */
export function statusRefOf(id: string): StatusRef {
  const comment = COMMENT.exec(id);
  if (comment) return { kind: 'comment', postId: comment[1] ?? '', commentId: comment[2] ?? '' };
  if (ULID.test(id)) return { kind: 'post', id };
  throw notFound(MastodonMessages.notFound);
}

/** A post's (or reblog's) id, refusing a comment's: most actions apply to posts only. */
export function postIdOf(id: string): string {
  const ref = statusRefOf(id);
  if (ref.kind !== 'post') throw notFound(MastodonMessages.notFound);
  return ref.id;
}

/**
 * The cursor of Perch's time-ordered lists that continues below a status id: a ULID's time and
 * the id, as a post's (or Home entry's) creation time and id order them.
 */
export function cursorBelow(id: string): string | undefined {
  if (!ULID.test(id)) return undefined;
  return encodeCursor([decodeTime(id), id]);
}

// Uploads are kept at /media/<first two hex digits>/<sha256>.<ext>: the id is the last part.
const UPLOAD_ID = /^([0-9a-f]{64})\.(webp|gif|jpg|png)$/;
const UPLOAD_PATH = /^\/media\/[0-9a-f]{2}\/([0-9a-f]{64}\.(?:webp|gif|jpg|png))$/;

/**
 * A MediaAttachment's id: an upload's `<sha256>.<ext>`; other images (the demo community's) the
 * base64url of their path.
 */
export function mediaIdOf(url: string): string {
  const upload = UPLOAD_PATH.exec(url);
  if (upload) return upload[1] ?? url;
  return Buffer.from(url).toString('base64url');
}

/** The image a `media_ids[]` entry names: an attachment id, or the URL Perch's upload answered. */
export function mediaUrlOf(id: string): string {
  if (id.startsWith('/media/')) return id;
  const upload = UPLOAD_ID.exec(id);
  if (upload) return `/media/${id.slice(0, 2)}/${id}`;
  const decoded = Buffer.from(id, 'base64url').toString('utf8');
  return decoded.startsWith('/media/') ? decoded : id;
}

/** Where a picture's focal point is, each side from -1 to 1 (Mastodon's `focus`). */
export interface Focus {
  x: number;
  y: number;
}

/** An attachment id as an upload, with the description and focus it was given. */
export interface MediaRef {
  url: string;
  description: string | null;
  focus: Focus | null;
}

const DETAILS = z.object({
  d: z.string().optional(),
  f: z.tuple([z.number().min(-1).max(1), z.number().min(-1).max(1)]).optional(),
});

/**
 * Perch keeps an image's description with the post that shows it, not with the upload: an
 * uploaded attachment's id carries what it was given, `<sha256>.<ext>.<base64url of JSON>`, so
 * that a status made with that id shows it. Without either the id is the plain upload id.
 */
export function uploadedMediaId(url: string, description: string | null, focus: Focus | null) {
  const id = mediaIdOf(url);
  if (!description && !focus) return id;
  const details = {
    ...(description && { d: description }),
    ...(focus && { f: [focus.x, focus.y] }),
  };
  return `${id}.${Buffer.from(JSON.stringify(details)).toString('base64url')}`;
}

/** What an attachment id names (see uploadedMediaId); details that do not read are dropped. */
export function mediaRefOf(id: string): MediaRef {
  const [hash = '', extension = '', details] = id.split('.');
  if (details === undefined || !UPLOAD_ID.test(`${hash}.${extension}`)) {
    return { url: mediaUrlOf(id), description: null, focus: null };
  }
  const url = mediaUrlOf(`${hash}.${extension}`);
  try {
    const parsed = DETAILS.safeParse(JSON.parse(Buffer.from(details, 'base64url').toString()));
    if (!parsed.success) return { url, description: null, focus: null };
    const [x, y] = parsed.data.f ?? [];
    const focus = x === undefined || y === undefined ? null : { x, y };
    return { url, description: parsed.data.d ?? null, focus };
  } catch {
    return { url, description: null, focus: null };
  }
}
