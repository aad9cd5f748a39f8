import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../test/server';
import { ApiError, NETWORK_ERROR_STATUS, onUnauthorized } from './api';
import { uploadImage } from './upload';

const stored = {
  url: '/media/abc.webp',
  thumbnailURL: '/media/abc-thumb.webp',
  width: 640,
  height: 480,
  blurhash: 'LEHV6nWB2yk8pyo0adR*.7kCMdnj',
  mimeType: 'image/webp',
  size: 1234,
};

const file = () => new File([new Uint8Array([137, 80, 78, 71])], 'a.png', { type: 'image/png' });

describe('uploadImage', () => {
  it('posts the file and its purpose with the token, reports progress, resolves the answer', async () => {
    let seen: { auth: string | null; purpose: unknown; hasFile: boolean } | undefined;
    server.use(
      http.post('/api/media', async ({ request }) => {
        const form = await request.formData();
        const part = form.get('file');
        seen = {
          auth: request.headers.get('authorization'),
          purpose: form.get('purpose'),
          hasFile: part !== null && typeof part !== 'string',
        };
        return HttpResponse.json(stored, { status: 201 });
      }),
    );
    const progress: number[] = [];

    const result = await uploadImage(file(), {
      token: 'token-1',
      purpose: 'avatar',
      onProgress: (fraction) => progress.push(fraction),
    });

    expect(result).toEqual(stored);
    expect(seen).toEqual({ auth: 'token-1', purpose: 'avatar', hasFile: true });
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);
  });

  it('uploads through fetch where there is no XMLHttpRequest (the service worker)', async () => {
    const seen: (string | null)[] = [];
    server.use(
      http.post('/api/media', async ({ request }) => {
        const form = await request.formData();
        seen.push(request.headers.get('authorization'), form.get('purpose') as string | null);
        return HttpResponse.json(stored, { status: 201 });
      }),
    );
    vi.stubGlobal('XMLHttpRequest', undefined);
    try {
      expect(await uploadImage(file(), { token: 'token-2', purpose: 'post' })).toEqual(stored);
      expect(seen).toEqual(['token-2', 'post']);
      server.use(
        http.post('/api/media', () =>
          HttpResponse.json({ errors: ['File too large.'] }, { status: 413 }),
        ),
      );
      const error = await uploadImage(file(), { token: 't', purpose: 'post' }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(413);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('rejects with the server messages in an ApiError', async () => {
    server.use(
      http.post('/api/media', () =>
        HttpResponse.json(
          { errors: ['Only JPEG, PNG, WebP and GIF images can be uploaded.'] },
          { status: 415 },
        ),
      ),
    );

    const error = await uploadImage(file(), { token: 't', purpose: 'post' }).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 415,
      messages: ['Only JPEG, PNG, WebP and GIF images can be uploaded.'],
    });
  });

  it('tells the unauthorized listeners about a refused token', async () => {
    server.use(
      http.post('/api/media', () =>
        HttpResponse.json({ errors: ['The token is invalid.'] }, { status: 401 }),
      ),
    );
    const listener = vi.fn();
    const unsubscribe = onUnauthorized(listener);

    await expect(uploadImage(file(), { token: 'old', purpose: 'post' })).rejects.toMatchObject({
      status: 401,
    });

    expect(listener).toHaveBeenCalledWith('old');
    unsubscribe();
  });

  it('rejects an unexpected answer and a network failure', async () => {
    server.use(http.post('/api/media', () => HttpResponse.json({ nope: true }, { status: 201 })));
    await expect(uploadImage(file(), { token: 't', purpose: 'post' })).rejects.toMatchObject({
      status: 201,
    });

    server.use(http.post('/api/media', () => HttpResponse.error()));
    await expect(uploadImage(file(), { token: 't', purpose: 'post' })).rejects.toMatchObject({
      status: NETWORK_ERROR_STATUS,
    });
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      uploadImage(file(), { token: 't', purpose: 'post', signal: controller.signal }),
    ).rejects.toMatchObject({ status: NETWORK_ERROR_STATUS });
  });
});
