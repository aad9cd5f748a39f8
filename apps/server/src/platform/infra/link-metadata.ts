import { Parser } from 'htmlparser2';

/**
 * A link preview's metadata read from a page's <head>: OpenGraph first, then Twitter card tags,
 * then the plain <title> and description. Pure: the page is fetched elsewhere (guarded fetch).
 */

export interface LinkPreviewImage {
  /** Absolute http(s) URL. */
  url: string;
  width: number | null;
  height: number | null;
  alt: string | null;
}

export interface LinkMetadata {
  title: string | null;
  description: string | null;
  siteName: string | null;
  image: LinkPreviewImage | null;
  /** The page's oEmbed endpoint (JSON), when it advertises one. */
  oembedUrl: string | null;
}

/** Caps, in characters as people see them (grapheme clusters). */
export const LINK_METADATA_LIMITS = {
  title: 200,
  description: 500,
  siteName: 100,
  imageAlt: 500,
} as const;

const MAX_URL_LENGTH = 2048;
const MAX_IMAGE_SIDE = 100_000;
/** The parser is fed in chunks so that it can stop soon after the head ends. */
const CHUNK_LENGTH = 16 * 1024;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Bidirectional overrides and a stray byte-order mark, which can disguise text. */
const INVISIBLE_FORMATTING = /[\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * Collapses whitespace and control characters to single spaces, drops bidirectional overrides,
 * trims, and caps at `limit` graphemes (the last one an ellipsis when cut); null when empty.
 */
export function cleanText(raw: string | undefined, limit: number): string | null {
  if (raw === undefined) return null;
  const text = raw
    .replace(INVISIBLE_FORMATTING, '')
    .replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, ' ')
    .trim();
  if (text === '') return null;
  const graphemes: string[] = [];
  for (const { segment } of segmenter.segment(text)) {
    if (graphemes.length === limit) {
      return `${graphemes
        .slice(0, limit - 1)
        .join('')
        .trimEnd()}…`;
    }
    graphemes.push(segment);
  }
  return text;
}

/** The first candidate that is still text once cleaned. */
function firstText(limit: number, ...candidates: (string | undefined)[]): string | null {
  for (const candidate of candidates) {
    const text = cleanText(candidate, limit);
    if (text !== null) return text;
  }
  return null;
}

/** An absolute http(s) URL resolved against `base`, or null. */
export function absoluteHttpUrl(raw: string | undefined, base: URL | null): string | null {
  const trimmed = raw?.trim();
  if (!trimmed) return null;
  let url: URL;
  try {
    url = new URL(trimmed, base ?? undefined);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.href.length <= MAX_URL_LENGTH ? url.href : null;
}

function dimension(raw: string | undefined): number | null {
  if (raw === undefined || !/^\s*\d+\s*$/.test(raw)) return null;
  const value = Number(raw);
  return value > 0 && value <= MAX_IMAGE_SIDE ? value : null;
}

/** What the head said, before choosing and cleaning. */
interface HeadTags {
  /** meta property/name → its first content. */
  meta: Map<string, string>;
  title: string | undefined;
  baseHref: string | undefined;
  oembedHref: string | undefined;
}

const hasToken = (list: string | undefined, token: string) =>
  (list ?? '').toLowerCase().split(/\s+/).includes(token);

/** Reads the head's <title>, <meta>, <base> and oEmbed <link>, stopping where the body starts. */
function readHead(html: string): HeadTags {
  const tags: HeadTags = {
    meta: new Map(),
    title: undefined,
    baseHref: undefined,
    oembedHref: undefined,
  };
  let titleText: string | null = null;
  // An object, so that the loop below sees what the parser's callbacks set.
  const progress = { done: false };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'body') {
          progress.done = true;
          parser.pause();
        } else if (name === 'title' && tags.title === undefined) {
          titleText = '';
        } else if (name === 'meta') {
          const key = (attributes.property ?? attributes.name)?.trim().toLowerCase();
          const content = attributes.content;
          if (key && content !== undefined && !tags.meta.has(key)) tags.meta.set(key, content);
        } else if (name === 'base') {
          tags.baseHref ??= attributes.href;
        } else if (
          name === 'link' &&
          hasToken(attributes.rel, 'alternate') &&
          attributes.type?.trim().toLowerCase() === 'application/json+oembed'
        ) {
          tags.oembedHref ??= attributes.href;
        }
      },
      ontext(text) {
        if (titleText !== null) titleText += text;
      },
      onclosetag(name) {
        if (name === 'title' && titleText !== null) {
          tags.title = titleText;
          titleText = null;
        } else if (name === 'head') {
          progress.done = true;
          parser.pause();
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  for (let at = 0; at < html.length && !progress.done; at += CHUNK_LENGTH) {
    parser.write(html.slice(at, at + CHUNK_LENGTH));
  }
  if (!progress.done) parser.end();
  return tags;
}

const first = (meta: Map<string, string>, ...keys: string[]) =>
  keys.map((key) => meta.get(key)).find((value) => value !== undefined && value.trim() !== '');

function pickImage(meta: Map<string, string>, base: URL | null): LinkPreviewImage | null {
  const og = absoluteHttpUrl(first(meta, 'og:image', 'og:image:url', 'og:image:secure_url'), base);
  if (og) {
    return {
      url: og,
      width: dimension(meta.get('og:image:width')),
      height: dimension(meta.get('og:image:height')),
      alt: cleanText(meta.get('og:image:alt'), LINK_METADATA_LIMITS.imageAlt),
    };
  }
  const twitter = absoluteHttpUrl(first(meta, 'twitter:image', 'twitter:image:src'), base);
  if (!twitter) return null;
  return {
    url: twitter,
    width: null,
    height: null,
    alt: cleanText(meta.get('twitter:image:alt'), LINK_METADATA_LIMITS.imageAlt),
  };
}

/** The page URL, or null when it cannot be parsed (relative links are then dropped). */
function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/**
 * Extracts a link preview's metadata from an HTML document fetched from `pageUrl` (its final URL,
 * after redirects). Never throws: what cannot be read is null.
 */
export function extractLinkMetadata(html: string, pageUrl: string): LinkMetadata {
  const empty = { title: null, description: null, siteName: null, image: null, oembedUrl: null };
  let tags: HeadTags;
  try {
    tags = readHead(html);
  } catch {
    return empty;
  }
  const page = parseUrl(pageUrl);
  const baseHref = absoluteHttpUrl(tags.baseHref, page);
  const base = baseHref ? new URL(baseHref) : page;
  const { meta } = tags;
  const { title, description, siteName } = LINK_METADATA_LIMITS;
  return {
    title: firstText(title, meta.get('og:title'), meta.get('twitter:title'), tags.title),
    description: firstText(
      description,
      meta.get('og:description'),
      meta.get('twitter:description'),
      meta.get('description'),
    ),
    siteName: firstText(siteName, meta.get('og:site_name'), meta.get('application-name')),
    image: pickImage(meta, base),
    oembedUrl: absoluteHttpUrl(tags.oembedHref, base),
  };
}
