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
 * sending it. It never authorises a write: writes read the header only. It has no expiry, so it
 * ends with the browser session: a client that signs out by forgetting its token alone (as the
 * product spec's does) leaves it behind, and the next person at that browser must not read as
 * the last member for longer than that. Perch's app sets it again from its token on every start.
 */
export const SESSION_COOKIE = 'perch_session';

/** The token of a request a browser may send without headers: the header's, or the cookie's. */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  return extractToken(request) ?? request.cookies[SESSION_COOKIE];
}

export function setSessionCookie(reply: FastifyReply, token: string): void {
  void reply.setCookie(SESSION_COOKIE, token, {
    path: '/api',
    httpOnly: true,
    sameSite: 'strict',
    secure: reply.request.protocol === 'https',
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { path: '/api' });
}
