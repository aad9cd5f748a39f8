import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { MediaStore } from './media.store';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where uploaded images are kept. */
    mediaStore: MediaStore;
  }
}

export interface MediaPluginOptions {
  store: MediaStore;
}

/**
 * Makes the media store available as app.mediaStore. Unused uploads are swept by the scheduled
 * job 'media-sweep' (see services.ts), once across all processes.
 */
export const mediaPlugin = fp(
  (app: FastifyInstance, options: MediaPluginOptions, done: () => void) => {
    app.decorate('mediaStore', options.store);
    done();
  },
  { name: 'perch-media' },
);
