import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * What is worth compressing: JSON, HTML and XML. Not the event stream (a compressor holds frames
 * back until it has enough to compress) and not images (already compressed).
 */
const COMPRESSIBLE =
  /^(application\/(json|[a-z.+-]*\+json|xml|[a-z.+-]*\+xml)|text\/(html|plain|xml|css|javascript))(\s*;|$)/;

/**
 * Answers of 1 kB and more, compressed for clients that accept it: gzip at level 6 first, which
 * makes a feed page as small as brotli at quality 4 for two thirds of its CPU (decision 0035);
 * brotli for a client that takes nothing else. Built assets are compressed at build time and
 * served as they are. Request bodies are never inflated: a small compressed body could otherwise
 * grow past the body limit after it was checked.
 */
export const compression = fp(async (app: FastifyInstance, options: { enabled: boolean }) => {
  if (!options.enabled) return;
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: 1024,
    // Compressed on the spot: the stream path the plugin takes past a few kB by default cost
    // ten times the answer's own CPU in the bench (0035); answers are at most a few hundred kB.
    syncThreshold: 1024 * 1024,
    encodings: ['gzip', 'br'],
    customTypes: COMPRESSIBLE,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
});
