import type { FastifyRequest } from 'fastify';

/** `Prefer: return=minimal` (RFC 7240): the client keeps its own lists and wants only what changed. */
export function wantsMinimal(request: FastifyRequest): boolean {
  const prefer = request.headers.prefer;
  return typeof prefer === 'string' && /(^|[\s,;])return=minimal\b/i.test(prefer);
}
