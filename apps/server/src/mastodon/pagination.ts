import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/**
 * Mastodon's list parameters: `max_id` (older than), `since_id` (newer than, newest first),
 * `min_id` (newer than, oldest first, for catching up) and `limit`.
 */
export const pageParamsSchema = z.object({
  max_id: z.string().max(64).optional(),
  since_id: z.string().max(64).optional(),
  min_id: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).catch(20).optional(),
});
export type PageParams = z.infer<typeof pageParamsSchema>;

/** `limit` within the method's bounds (Mastodon clamps rather than refuses). */
export const limitOf = (params: PageParams, fallback = 20, max = 40): number =>
  Math.min(params.limit ?? fallback, max);

/**
 * Sets Mastodon's `Link` header for a page of items (newest first): `next` for older items
 * (max_id = the last one's), `prev` for newer ones (min_id = the first one's). None when empty.
 */
export function setPageLinks(
  request: FastifyRequest,
  reply: FastifyReply,
  origin: string,
  ids: { first: string; last: string } | null,
  more = true,
): void {
  if (ids === null) return;
  const url = new URL(request.url, origin);
  for (const name of ['max_id', 'min_id', 'since_id']) url.searchParams.delete(name);
  const link = (name: string, value: string) => {
    const next = new URL(url);
    next.searchParams.set(name, value);
    return next.toString();
  };
  const parts = [`<${link('min_id', ids.first)}>; rel="prev"`];
  if (more) parts.unshift(`<${link('max_id', ids.last)}>; rel="next"`);
  void reply.header('link', parts.join(', '));
}
