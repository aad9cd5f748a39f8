import type { MediaUploadResponse } from '@perch/contract';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { mediaDirOf } from '../../src/app/app';
import type { AppConfig } from '../../src/app/config';
import { mediaRoutes, type MediaRoutesOptions } from '../../src/modules/media/media.routes';
import type { MediaStore } from '../../src/modules/media/media.store';
import { createTestApp, type TestApp } from '../helpers';
import { multipart, type Part } from './fixtures';

export interface MediaTestApp extends TestApp {
  store: MediaStore;
  mediaDir: string;
}

/**
 * The test app and where it keeps media. The sweeper does not run on a timer in tests (the test
 * config turns it off): they call sweepOrphanMedia directly. Upload limits are tested on a route
 * of their own (see rate-limit.test.ts), as the test config turns the app's limit off.
 */
export async function createMediaTestApp(
  overrides: Partial<AppConfig> = {},
): Promise<MediaTestApp> {
  const t = await createTestApp(overrides);
  return { ...t, store: t.app.mediaStore, mediaDir: mediaDirOf(t.config) };
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
