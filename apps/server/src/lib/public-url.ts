import type { FastifyRequest } from 'fastify';

/**
 * Where this instance is reached from outside, for absolute links (canonical links, feeds,
 * OpenGraph): the configured PUBLIC_URL, or else the request's own scheme and Host (through
 * trusted proxies only; see TRUST_PROXY).
 */
export function publicOrigin(publicUrl: string | null, request: FastifyRequest): string {
  if (publicUrl) return publicUrl;
  return `${request.protocol}://${request.host}`;
}
