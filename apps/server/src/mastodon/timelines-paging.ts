import type { mastodon, Post } from '@perch/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StatusRenderer } from './hydrate';
import { limitOf, setPageLinks, type PageParams } from './pagination';
import { cursorBelow, isUlid } from './statuses-ids';

/** A list of Perch's, newest first, read a page at a time below an opaque cursor. */
export type PostSource = (
  cursor: string | undefined,
  limit: number,
) => Promise<{ posts: Post[]; nextCursor: string | null }>;

export interface ListOptions {
  /** Which posts the list keeps (a filter of the method's); all by default. */
  keep?: (post: Post) => boolean;
  /** The list's cursor below a status id; Perch's (time, id) cursor by default. */
  below?: (id: string) => string | undefined;
}

/** How many posts a page of the walk towards `since_id` / `min_id` reads, and how many at most. */
const WALK_PAGE = 40;
const WALK_MAX = 1000;

interface Walked {
  statuses: mastodon.Status[];
  /** The last status read (for the next page's `max_id`), kept or not. */
  lastId: string | null;
  more: boolean;
}

/**
 * Reads statuses newest first below `cursor` until `enough` says so, `bound` (an id) is reached
 * or the list ends; those at or below `bound` and those `keep` refuses are left out.
 */
async function walk(
  source: PostSource,
  renderer: StatusRenderer,
  start: { cursor: string | undefined; bound: string | null; pageSize: number },
  enough: (kept: number) => boolean,
  keep: (post: Post) => boolean,
): Promise<Walked> {
  const statuses: mastodon.Status[] = [];
  const seen = new Set<string>();
  let cursor = start.cursor;
  let lastId: string | null = null;
  let read = 0;
  for (;;) {
    const page = await source(cursor, start.pageSize);
    read += page.posts.length;
    const rendered = await renderer.statuses(page.posts.filter(keep));
    let reachedBound = false;
    for (const status of rendered) {
      if (start.bound !== null && status.id <= start.bound) {
        reachedBound = true;
        break;
      }
      if (seen.has(status.id)) continue;
      seen.add(status.id);
      statuses.push(status);
    }
    const last = page.posts[page.posts.length - 1];
    if (last && !reachedBound) lastId = rendered[rendered.length - 1]?.id ?? last._id;
    cursor = page.nextCursor ?? undefined;
    const more = cursor !== undefined && !reachedBound;
    if (!more || enough(statuses.length) || read >= WALK_MAX) {
      return { statuses, lastId, more: cursor !== undefined };
    }
  }
}

/**
 * A page of a time-ordered list as Mastodon's parameters ask for it, with its `Link` header:
 * `max_id` continues below a status (a ULID's time and id make Perch's cursor); `since_id` answers
 * the newest statuses above one, `min_id` those just above it (catching up), both newest first.
 * Those Perch reads from the top down, at most WALK_MAX posts.
 */
export async function timelinePage(
  request: FastifyRequest,
  reply: FastifyReply,
  renderer: StatusRenderer,
  params: PageParams,
  source: PostSource,
  options: ListOptions = {},
): Promise<mastodon.Status[]> {
  const { keep = () => true, below = cursorBelow } = options;
  const limit = limitOf(params);
  const cursor = params.max_id ? below(params.max_id) : undefined;
  const minId = params.min_id && isUlid(params.min_id) ? params.min_id : null;
  const sinceId = params.since_id && isUlid(params.since_id) ? params.since_id : null;
  const bound = minId ?? sinceId;
  let walked: Walked;
  if (bound === null) {
    walked = await walk(
      source,
      renderer,
      { cursor, bound, pageSize: limit },
      (n) => n >= limit,
      keep,
    );
  } else {
    const enough = minId === null ? (n: number) => n >= limit : () => false;
    walked = await walk(source, renderer, { cursor, bound, pageSize: WALK_PAGE }, enough, keep);
  }
  // With min_id the page is the oldest of those above it; otherwise the newest.
  const statuses = minId === null ? walked.statuses.slice(0, limit) : walked.statuses.slice(-limit);
  const first = statuses[0];
  const last = statuses[statuses.length - 1];
  const lastId = minId === null && walked.statuses.length <= limit ? walked.lastId : last?.id;
  if (first && lastId) {
    const more = walked.more || walked.statuses.length > limit;
    setPageLinks(request, reply, renderer.links.origin, { first: first.id, last: lastId }, more);
  }
  return statuses;
}
