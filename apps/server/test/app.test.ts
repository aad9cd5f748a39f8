import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from './helpers';

let t: TestApp;
let webDir: string;
const INDEX_HTML = '<!doctype html><title>Perch</title><div id="root"></div>';
const APP_SCRIPT = 'console.log("app")';

beforeAll(async () => {
  webDir = mkdtempSync(path.join(os.tmpdir(), 'perch-web-'));
  mkdirSync(path.join(webDir, 'assets'));
  writeFileSync(path.join(webDir, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log("app")');
  // As the build's precompression leaves them: each copy beside its file.
  writeFileSync(path.join(webDir, 'assets', 'app-abc123.js.br'), brotliCompressSync(APP_SCRIPT));
  writeFileSync(path.join(webDir, 'assets', 'app-abc123.js.gz'), gzipSync(APP_SCRIPT));
  writeFileSync(path.join(webDir, 'index.html.gz'), gzipSync(INDEX_HTML));
  t = await createTestApp({ webDir });
});
afterAll(async () => {
  await t.close();
  rmSync(webDir, { recursive: true, force: true });
});

describe('compressed assets', () => {
  const script = (acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

  it('sends the copy the browser prefers among those it accepts, varying by Accept-Encoding', async () => {
    const br = await script('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(APP_SCRIPT);
    const gz = await script('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(APP_SCRIPT);
    for (const response of [br, gz]) {
      expect(response.headers['content-type']).toMatch(/javascript/);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it('sends the file itself to a client that accepts no compression', async () => {
    for (const response of [await script(), await script('identity')]) {
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.body).toBe(APP_SCRIPT);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
    }
  });

  it('sends the page of a deep link compressed too, and what has no copy as it is', async () => {
    const page = await call(t.app, {
      method: 'GET',
      url: '/profile/someone',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(page.rawPayload).toString()).toBe(INDEX_HTML);
  });
});

describe('the app shell', () => {
  it('answers the health check once the database is ready', async () => {
    const response = await call(t.app, { method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers an unknown API path with a JSON 404, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const response = await call(t.app, { method, url: '/api/no/such/thing' });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      expect(response.json()).toEqual({ errors: ['Not found'] });
    }
  });

  it('serves the web app for deep links so the client router can take over', async () => {
    const response = await call(t.app, { method: 'GET', url: '/profile/someone?tab=posts' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.body).toContain('<div id="root">');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('serves the web app at the root, without forcing HTTPS on plain-HTTP installs', async () => {
    const response = await call(t.app, { method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root">');
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });

  it('serves hashed assets with long-lived caching and security headers', async () => {
    const response = await call(t.app, { method: 'GET', url: '/assets/app-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('sends pages the full set of security headers, with the policy of the app', async () => {
    for (const url of ['/', '/profile/someone']) {
      const response = await call(t.app, { method: 'GET', url });
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    }
  });

  it('sends JSON answers only the security headers that matter for JSON, errors included', async () => {
    const answers = [
      await call(t.app, { method: 'GET', url: '/api/health' }),
      await call(t.app, { method: 'GET', url: '/api/no/such/thing' }),
      await call(t.app, { method: 'GET', url: '/api/posts?limit=many' }),
      await call(t.app, { method: 'POST', url: '/api/posts', payload: {} }),
    ];
    for (const response of answers) {
      expect(response.headers['content-type']).toMatch(/application\/json/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['content-security-policy']).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(response.headers['referrer-policy']).toBeUndefined();
      expect(response.headers['x-dns-prefetch-control']).toBeUndefined();
    }
  });

  it('does not answer a missing media file with the web app', async () => {
    const response = await call(t.app, { method: 'GET', url: '/media/nothing.png' });
    expect(response.statusCode).toBe(404);
  });
});
