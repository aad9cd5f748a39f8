import type { FastifyRequest } from 'fastify';
import type { Viewer } from './viewer';

/**
 * `Prefer: return=minimal` (RFC 7240): the client keeps its own lists. A mutation then answers only
 * what changed; any answer leaves out the arrays embedded for the original API's clients.
 */
export function wantsMinimal(request: FastifyRequest): boolean {
  const prefer = request.headers.prefer;
  return typeof prefer === 'string' && /(^|[\s,;])return=minimal\b/i.test(prefer);
}

/**
 * What a mutation answers: the changed item, plus the first page of its list under `key` where the
 * original API returned the whole list, unless the client asked for `return=minimal`.
 */
export async function withFirstPage<Body extends object, Key extends string, Item>(
  request: FastifyRequest,
  body: Body,
  key: Key,
  firstPage: () => Promise<Item[]>,
): Promise<Body | (Body & Record<Key, Item[]>)> {
  if (wantsMinimal(request)) return body;
  return { ...body, ...({ [key]: await firstPage() } as Record<Key, Item[]>) };
}

/** Who reads an answer, and whether they want it lean (no embedded arrays, see EmbedsService). */
export interface Reader {
  viewer: Viewer | null;
  lean: boolean;
}

export function readerOf(request: FastifyRequest): Reader {
  return { viewer: request.viewer, lean: wantsMinimal(request) };
}
