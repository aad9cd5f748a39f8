import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorMessages } from '@perch/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { inMastodonApi } from './error-handler';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app and stored media; unknown /api paths answer a JSON 404 and any other
 * unknown GET gets the app's index.html so deep links load the app.
 */
export const webPlugin = fp(
  async (app: FastifyInstance, options: { webDir: string | null; mediaDir: string }) => {
    // Uploads create it too; made here so that a first start serves (and logs) no missing root.
    mkdirSync(options.mediaDir, { recursive: true, mode: 0o700 });
    await app.register(fastifyStatic, {
      root: options.mediaDir,
      prefix: '/media/',
      decorateReply: false,
      index: false,
      cacheControl: false,
      // Uploads being written wait under a dot-folder; they are nobody's to fetch yet.
      dotfiles: 'ignore',
      // Media names never change meaning, so browsers may keep them forever. Their security
      // headers come from plugins/security-headers.ts.
      setHeaders: (res) => {
        res.setHeader('cache-control', IMMUTABLE);
      },
    });

    const webDir =
      options.webDir && existsSync(path.join(options.webDir, 'index.html')) ? options.webDir : null;
    if (webDir) {
      await app.register(fastifyStatic, {
        root: webDir,
        prefix: '/',
        wildcard: true,
        index: ['index.html'],
        cacheControl: false,
        // The build writes .br and .gz copies beside the text assets (apps/web/scripts/
        // precompress.mjs); each browser gets the smallest it accepts, compressed once.
        preCompressed: true,
        setHeaders: (res, filePath) => {
          const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
          res.setHeader('cache-control', hashed ? IMMUTABLE : 'no-cache');
          res.setHeader('vary', 'accept-encoding');
        },
      });
    } else if (options.webDir) {
      app.log.warn({ webDir: options.webDir }, 'web app not built; serving the API only');
    }

    app.setNotFoundHandler((request, reply) => {
      const url = request.url.split('?')[0] ?? '';
      const wantsPage =
        webDir !== null &&
        (request.method === 'GET' || request.method === 'HEAD') &&
        url !== '/api' &&
        !url.startsWith('/api/') &&
        !url.startsWith('/media/');
      if (wantsPage) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html', webDir);
      }
      return reply
        .status(404)
        .send(
          inMastodonApi(url)
            ? { error: ErrorMessages.routeNotFound }
            : { errors: [ErrorMessages.routeNotFound] },
        );
    });
  },
);
