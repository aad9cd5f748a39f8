import {
  absoluteHttpUrl,
  cleanText,
  extractLinkMetadata,
  LINK_METADATA_LIMITS,
  type LinkMetadata,
} from '../../platform/infra/link-metadata';
import { FetchError, type GuardedFetch } from '../../platform/infra/guarded-fetch';

/**
 * Reads what a link's page says of itself, for its preview card: the page's head (OpenGraph, then
 * Twitter card tags, then its title), and its oEmbed document (JSON) when the page advertises one
 * and the head lacked a title or an image. Every request goes through the guarded fetch.
 */

/** What a card shows of a page, before its image is fetched. */
export interface PageSummary {
  title: string;
  description: string | null;
  siteName: string | null;
  /** The page's image (absolute http(s) URL), fetched apart. */
  imageUrl: string | null;
  imageWidth: number | null;
  imageHeight: number | null;
}

/** A page's summary, or why there is none (a FetchError's reason, 'not-html', 'no-metadata'). */
export type PageOutcome = { summary: PageSummary } | { error: string };

const PAGE_ACCEPT = 'text/html,application/xhtml+xml;q=0.9';
const HTML_TYPE = /^\s*(text\/html|application\/xhtml\+xml)\s*(;|$)/i;
const JSON_TYPE = /^\s*(application\/json|application\/json\+oembed|text\/json)\s*(;|$)/i;
const MAX_OEMBED_SIDE = 100_000;

/** The subset of an oEmbed answer (oembed.com, section 2.3.4) a card uses. */
interface OembedSummary {
  title: string | null;
  siteName: string | null;
  imageUrl: string | null;
  imageWidth: number | null;
  imageHeight: number | null;
}

const reasonOf = (error: unknown) => (error instanceof FetchError ? error.reason : 'network');

function side(value: unknown): number | null {
  return typeof value === 'number' &&
    Number.isInteger(value) &&
    value > 0 &&
    value <= MAX_OEMBED_SIDE
    ? value
    : null;
}

const text = (value: unknown, limit: number) =>
  typeof value === 'string' ? cleanText(value, limit) : null;

/** The oEmbed document's title, provider and thumbnail; null when it cannot be had or read. */
async function readOembed(
  fetch: GuardedFetch,
  url: string,
  signal?: AbortSignal,
): Promise<OembedSummary | null> {
  let body: unknown;
  try {
    const answer = await fetch(url, { accept: 'application/json', signal });
    if (answer.contentType !== null && !JSON_TYPE.test(answer.contentType)) return null;
    body = JSON.parse(answer.text());
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const document = body as Record<string, unknown>;
  const thumbnail =
    typeof document.thumbnail_url === 'string'
      ? absoluteHttpUrl(document.thumbnail_url, new URL(url))
      : null;
  return {
    title: text(document.title, LINK_METADATA_LIMITS.title),
    siteName: text(document.provider_name, LINK_METADATA_LIMITS.siteName),
    imageUrl: thumbnail,
    imageWidth: thumbnail ? side(document.thumbnail_width) : null,
    imageHeight: thumbnail ? side(document.thumbnail_height) : null,
  };
}

/** The head's metadata, with the oEmbed document filling what the head lacked. */
function summaryOf(meta: LinkMetadata, oembed: OembedSummary | null): PageSummary | null {
  const title = meta.title ?? oembed?.title ?? null;
  if (title === null) return null;
  const image = meta.image
    ? { imageUrl: meta.image.url, imageWidth: meta.image.width, imageHeight: meta.image.height }
    : {
        imageUrl: oembed?.imageUrl ?? null,
        imageWidth: oembed?.imageWidth ?? null,
        imageHeight: oembed?.imageHeight ?? null,
      };
  return {
    title,
    description: meta.description,
    siteName: meta.siteName ?? oembed?.siteName ?? null,
    ...image,
  };
}

/** Fetches the page at `url` and reads its summary. Never throws. */
export async function readPage(
  fetch: GuardedFetch,
  url: string,
  signal?: AbortSignal,
): Promise<PageOutcome> {
  let page;
  try {
    page = await fetch(url, { accept: PAGE_ACCEPT, signal });
  } catch (error) {
    return { error: reasonOf(error) };
  }
  if (page.contentType !== null && !HTML_TYPE.test(page.contentType)) return { error: 'not-html' };
  const meta = extractLinkMetadata(page.text(), page.url);
  // The oEmbed document is one request more: asked only when the head left the card wanting.
  const oembed =
    meta.oembedUrl !== null && (meta.title === null || meta.image === null)
      ? await readOembed(fetch, meta.oembedUrl, signal)
      : null;
  const summary = summaryOf(meta, oembed);
  return summary ? { summary } : { error: 'no-metadata' };
}

const IMAGE_ACCEPT = 'image/webp,image/png,image/jpeg,image/gif;q=0.9';

/** The image's bytes, or null when it cannot be had (refused, too large, too slow, not an image). */
export async function fetchImageBytes(
  fetch: GuardedFetch,
  url: string,
  signal?: AbortSignal,
): Promise<Buffer | null> {
  try {
    const answer = await fetch(url, { accept: IMAGE_ACCEPT, signal });
    if (answer.contentType !== null && !/^\s*image\//i.test(answer.contentType)) return null;
    return answer.body;
  } catch {
    return null;
  }
}
