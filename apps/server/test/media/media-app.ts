import type { MediaUploadResponse } from '@perch/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { mediaDirOf } from '../../src/app';
import type { AppConfig } from '../../src/config';
import { mediaPlugin } from '../../src/modules/media/media.plugin';
import { mediaRoutes, type MediaRoutesOptions } from '../../src/modules/media/media.routes';
import { createDiskMediaStore, type MediaStore } from '../../src/modules/media/media.store';
import { createTestApp, type TestApp } from '../helpers';
import { multipart, type Part } from './fixtures';

export interface MediaTestApp extends TestApp {
  store: MediaStore;
  mediaDir: string;
}

/**
 * The test app with the media plugin and routes, added here when the app does not register them
 * itself. The sweeper does not run on a timer in tests: they call sweepOrphanMedia directly.
 */
export async function createMediaTestApp(
  overrides: Partial<AppConfig> = {},
): Promise<MediaTestApp> {
  const t = await createTestApp(overrides);
  const mediaDir = mediaDirOf(t.config);
  if (!t.app.hasDecorator('mediaStore')) {
    await t.app.register(mediaPlugin, {
      store: createDiskMediaStore(mediaDir),
      sweepIntervalMs: 0,
    });
  }
  if (!t.app.hasRoute({ method: 'POST', url: '/api/media' })) {
    // Limits are tested on a route of their own (see rate-limit.test.ts).
    await t.app.register(mediaRoutes, { prefix: '/api/media', uploadsPerMinute: 0 });
  }
  return { ...t, store: t.app.mediaStore, mediaDir };
}

/** The upload route once more under another path, with options of the test's choosing. */
export async function registerUploadRoute(
  app: FastifyInstance,
  prefix: string,
  options: MediaRoutesOptions,
): Promise<void> {
  await app.register(mediaRoutes, { prefix, ...options });
}

export function upload(
  app: FastifyInstance,
  parts: Part[],
  options: { token?: string; url?: string } = {},
): Promise<LightMyRequestResponse> {
  const body = multipart(parts);
  return app.inject({
    method: 'POST',
    url: options.url ?? '/api/media',
    payload: body.payload,
    headers: {
      ...body.headers,
      ...(options.token ? { authorization: options.token } : {}),
    },
  });
}

export const uploaded = (response: LightMyRequestResponse): MediaUploadResponse => {
  if (response.statusCode !== 201) {
    throw new Error(`upload failed: ${response.statusCode} ${response.body}`);
  }
  return response.json<MediaUploadResponse>();
};

export const errorsOf = (response: LightMyRequestResponse): string[] =>
  response.json<{ errors: string[] }>().errors;
