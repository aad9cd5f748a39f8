import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from './helpers';

let t: TestApp;
let webDir: string;

beforeAll(async () => {
  webDir = mkdtempSync(path.join(os.tmpdir(), 'perch-web-'));
  mkdirSync(path.join(webDir, 'assets'));
  writeFileSync(
    path.join(webDir, 'index.html'),
    '<!doctype html><title>Perch</title><div id="root"></div>',
  );
  writeFileSync(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log("app")');
  t = await createTestApp({ webDir });
});
afterAll(async () => {
  await t.close();
  rmSync(webDir, { recursive: true, force: true });
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
