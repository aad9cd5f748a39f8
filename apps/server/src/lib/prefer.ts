import type { FastifyRequest } from 'fastify';

/** `Prefer: return=minimal` (RFC 7240): the client keeps its own lists and wants only what changed. */
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
