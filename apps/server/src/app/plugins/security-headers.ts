import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

type HeaderMap = Readonly<Record<string, string>>;

/**
 * The web app's pages, scripts and styles: what helmet sends with Perch's policy, as a fixed map so
 * that nothing is built per request. No HSTS and no upgrade-insecure-requests: self-hosted
 * instances often serve plain HTTP on a private network, and a TLS-terminating proxy in front is
 * the place for them.
 */
export const PAGE_HEADERS: HeaderMap = {
  'content-security-policy': [
    "default-src 'self'",
    "base-uri 'self'",
    "font-src 'self' data:",
    "form-action 'self'",
    // No page may frame Perch, not even its own (x-frame-options says so to older browsers).
    "frame-ancestors 'none'",
    "img-src 'self' data: blob:",
    "object-src 'none'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    "connect-src 'self'",
  ].join(';'),
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/**
 * Uploaded images: everything pages get, but a policy that lets nothing run or load, should a
 * browser ever open one as a document. Other sites may embed them: the images of public posts are
 * shown by feed readers and other apps in the browser, and are named by an unguessable hash.
 */
export const MEDIA_HEADERS: HeaderMap = {
  ...PAGE_HEADERS,
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'cross-origin-resource-policy': 'cross-origin',
};

/**
 * API answers are JSON read by scripts, never rendered, so the document-only headers (referrer,
 * opener, origin-agent-cluster, the legacy IE and Flash ones) would do nothing but fill every
 * answer. What still matters: no sniffing JSON into script or HTML, no framing, nothing loading if
 * an answer is opened directly, and no other site reading one through a no-cors request.
 */
export const API_HEADERS: HeaderMap = {
  // Answers are personal (token or session cookie) and change with every write; set here, before
  // routing, so that 404s and errors before any route carry it too. A route may set its own.
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/**
 * The API reference (/api/docs) is a page with its own scripts and styles, served from this
 * server: the pages' policy lets it run; every other /api path keeps the API's.
 */
function isApiDocs(url: string): boolean {
  return url === '/api/docs' || url.startsWith('/api/docs/') || url.startsWith('/api/docs?');
}

export function securityHeadersFor(url: string): HeaderMap {
  if (isApiDocs(url)) return PAGE_HEADERS;
  if (url.startsWith('/api/') || url === '/api' || url.startsWith('/api?')) return API_HEADERS;
  if (url.startsWith('/media/')) return MEDIA_HEADERS;
  return PAGE_HEADERS;
}

/**
 * Sets the security headers on every answer the app sends itself, errors and 404s included. The
 * event stream writes its own (see events/sse.ts).
 */
export const securityHeaders = fp(
  (app: FastifyInstance, _options: unknown, done: () => void) => {
    app.addHook('onRequest', (request, reply, next) => {
      void reply.headers(securityHeadersFor(request.url));
      next();
    });
    done();
  },
  { name: 'perch-security-headers' },
);
