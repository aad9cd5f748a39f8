import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

// How a request carries its token: the Authorization header, or the session cookie.

export function extractToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  if (!header) return undefined;
  // The product's client sends the raw token; standard clients send "Bearer <token>".
  return /^bearer\s+/i.test(header) ? header.replace(/^bearer\s+/i, '') : header;
}

/**
 * The session cookie carries the same token as the header, for what a browser requests without
 * headers. HttpOnly keeps scripts from reading it; SameSite=Strict keeps other sites' pages from
 * sending it. It never authorises a write: writes read the header only.
 */
export const SESSION_COOKIE = 'perch_session';

/** The token of a request a browser may send without headers: the header's, or the cookie's. */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  return extractToken(request) ?? request.cookies[SESSION_COOKIE];
}

export function setSessionCookie(reply: FastifyReply, token: string, maxAgeSeconds: number): void {
  void reply.setCookie(SESSION_COOKIE, token, {
    path: '/api',
    httpOnly: true,
    sameSite: 'strict',
    secure: reply.request.protocol === 'https',
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { path: '/api' });
}
