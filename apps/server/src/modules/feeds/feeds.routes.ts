import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { publicOrigin } from '../../lib/public-url';
import type { WrittenFeed } from './feeds.service';

const RSS_TYPE = 'application/rss+xml; charset=utf-8';
const XML_TYPE = 'application/xml; charset=utf-8';
// Crawlers come back daily at most; an hour bounds how long a profile's coming or going waits.
const SITEMAP_CACHE = 'public, max-age=3600';
/** Without a built web app (which has its own robots.txt): keep crawlers out of the API. */
const DEFAULT_ROBOTS = 'User-agent: *\nDisallow: /api/\n';
const ATOM_TYPE = 'application/atom+xml; charset=utf-8';
// Feeds show only what anyone may see, so shared caches may keep them; readers poll every few
// minutes, and five minutes bound how long a new post, or a member's leaving, takes to show.
const CACHE_CONTROL = 'public, max-age=300';

/**
 * Readers that run in a browser fetch feeds from their own origin: a feed holds only what anyone
 * may see and is read without credentials, so any page may read it.
 */
const OPEN_TO_ALL = {
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
};

/** A weak validator of the feed's bytes, the same in every process for the same document. */
const etagOf = (xml: string): string =>
  `W/"${createHash('sha256').update(xml).digest('base64url').slice(0, 27)}"`;

/** Whether the reader's If-None-Match names this feed (weak comparison, as RFC 9110 asks). */
function alreadyHeld(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (header === undefined) return false;
  const opaque = etag.slice(2);
  return header
    .split(',')
    .map((tag) => tag.trim())
    .some((tag) => tag === '*' || tag.replace(/^W\//, '') === opaque);
}

/** Not an API answer: readers and browsers get plain text. */
const notFound = (reply: FastifyReply) =>
  reply.code(404).type('text/plain; charset=utf-8').send('Not found.\n');

/**
 * A feed, or 404 when there is none. No Last-Modified: the feed's newest time goes back when its
 * newest post is deleted, so only the validator from its bytes answers If-None-Match with a 304.
 */
async function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  type: string,
  read: () => Promise<WrittenFeed | null>,
) {
  let feed: WrittenFeed | null;
  try {
    feed = await read();
  } catch (error) {
    // A member gone between the reads that make the feed.
    if (error instanceof AppError && error.statusCode === 404) return notFound(reply);
    throw error;
  }
  if (!feed) return notFound(reply);
  const etag = etagOf(feed.xml);
  void reply.header('cache-control', CACHE_CONTROL).header('etag', etag).headers(OPEN_TO_ALL);
  if (feed.noindex) void reply.header('x-robots-tag', 'noindex');
  if (alreadyHeld(request, etag)) return reply.code(304).send();
  return reply.type(type).send(feed.xml);
}

/**
 * RSS and Atom feeds, outside /api: /@username.rss, /@username.atom and /tags/tag.rss, and what
 * crawlers read. They are read as a reader who is not signed in, whoever asks. HEAD is answered
 * too (Fastify's own).
 */
export const feedsRoutes: FastifyPluginAsync = async (app) => {
  const { feeds } = app.services;
  const originOf = (request: FastifyRequest) => publicOrigin(app.config.publicUrl, request);

  app.get<{ Params: { username: string } }>('/@:username.rss', (request, reply) =>
    answer(request, reply, RSS_TYPE, () =>
      feeds.member(request.params.username, 'rss', originOf(request)),
    ),
  );
  app.get<{ Params: { username: string } }>('/@:username.atom', (request, reply) =>
    answer(request, reply, ATOM_TYPE, () =>
      feeds.member(request.params.username, 'atom', originOf(request)),
    ),
  );
  app.get<{ Params: { tag: string } }>('/tags/:tag.rss', (request, reply) =>
    answer(request, reply, RSS_TYPE, () => feeds.tag(request.params.tag, originOf(request))),
  );
  crawlerRoutes(app, originOf);
};

/**
 * What crawlers read: /sitemap.xml (and its pages past 50,000 members) and robots.txt, the web
 * app's own with the sitemap's address added (robots.txt names it absolute).
 */
function crawlerRoutes(app: FastifyInstance, originOf: (request: FastifyRequest) => string) {
  const { feeds } = app.services;
  const sitemapOf = async (reply: FastifyReply, xml: Promise<string | null>) => {
    const written = await xml;
    if (written === null) return notFound(reply);
    return reply.header('cache-control', SITEMAP_CACHE).type(XML_TYPE).send(written);
  };
  app.get('/sitemap.xml', (request, reply) =>
    sitemapOf(reply, feeds.sitemap(originOf(request), null)),
  );
  app.get<{ Params: { page: string } }>('/sitemaps/:page.xml', (request, reply) => {
    const page = /^[1-9][0-9]{0,5}$/.test(request.params.page) ? Number(request.params.page) : 0;
    if (page === 0) return notFound(reply);
    return sitemapOf(reply, feeds.sitemap(originOf(request), page));
  });

  const webDir = app.config.webDir;
  let rules: Promise<string> | null = null;
  const robotsRules = () =>
    (rules ??=
      webDir === null
        ? Promise.resolve(DEFAULT_ROBOTS)
        : readFile(path.join(webDir, 'robots.txt'), 'utf8').catch(() => DEFAULT_ROBOTS));
  app.get('/robots.txt', async (request, reply) => {
    const text = `${(await robotsRules()).trimEnd()}\n\nSitemap: ${originOf(request)}/sitemap.xml\n`;
    return reply.header('cache-control', 'no-cache').type('text/plain; charset=utf-8').send(text);
  });
}
