import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../test/server';
import { ApiError, onUnauthorized } from './api';
import { downloadFile, filenameFromDisposition } from './download';

describe('filenameFromDisposition', () => {
  it('reads the plain and the encoded file name', () => {
    expect(filenameFromDisposition('attachment; filename="perch-ada.zip"')).toBe('perch-ada.zip');
    expect(filenameFromDisposition('attachment; filename=perch.zip')).toBe('perch.zip');
    expect(
      filenameFromDisposition(`attachment; filename="x.zip"; filename*=UTF-8''perch-%C3%A9.zip`),
    ).toBe('perch-é.zip');
    expect(filenameFromDisposition('attachment')).toBeNull();
    expect(filenameFromDisposition(null)).toBeNull();
  });
});

describe('downloadFile', () => {
  it('sends the token, reports progress and resolves the file with its name', async () => {
    let auth: string | null = null;
    const bytes = new Uint8Array(1000).fill(7);
    server.use(
      http.get('/api/file', ({ request }) => {
        auth = request.headers.get('authorization');
        return new HttpResponse(bytes, {
          headers: {
            'content-type': 'application/zip',
            'content-length': String(bytes.byteLength),
            'content-disposition': 'attachment; filename="data.zip"',
          },
        });
      }),
    );
    const progress: number[] = [];

    const file = await downloadFile('/api/file', {
      token: 'token-1',
      onProgress: (fraction) => progress.push(fraction),
    });

    expect(auth).toBe('token-1');
    expect(file.filename).toBe('data.zip');
    expect(file.blob.size).toBe(1000);
    expect(progress.at(-1)).toBe(1);
  });

  it("rejects with the server's message, and a refused token signs out", async () => {
    server.use(
      http.get('/api/file', () => HttpResponse.json({ errors: ['Slow down.'] }, { status: 429 })),
      http.get('/api/gone', () => HttpResponse.json({ errors: ['Unauthorized'] }, { status: 401 })),
    );
    const listener = vi.fn();
    const stop = onUnauthorized(listener);

    const slow = downloadFile('/api/file', { token: 'token-1' });
    await expect(slow).rejects.toBeInstanceOf(ApiError);
    await expect(slow).rejects.toMatchObject({ status: 429, message: 'Slow down.' });
    await expect(downloadFile('/api/gone', { token: 'token-2' })).rejects.toMatchObject({
      status: 401,
    });
    stop();

    expect(listener).toHaveBeenCalledExactlyOnceWith('token-2');
  });
});
