import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { createTestApp, type TestApp } from '../helpers';
import { createPost } from '../social/social-helpers';
import { expectHtml, expectNotFound, readPage, textOf } from './pages-helpers';

// As the web app's build writes it: its own title and description, its scripts and styles.
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta
      name="description"
      content="Perch: share short posts and follow the people you care about."
    />
    <title>Perch</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
  <link rel="manifest" href="/manifest.webmanifest"></head>
  <body>
    <div id="root"></div>
  </body>
</html>
`;

describe('public pages inside the built web app', () => {
  let t: TestApp;
  let webDir: string;
  let member: Member;

  beforeAll(async () => {
    webDir = mkdtempSync(path.join(os.tmpdir(), 'perch-web-'));
    writeFileSync(path.join(webDir, 'index.html'), INDEX_HTML);
    t = await createTestApp({ webDir });
    member = await createMember(t.app);
    await createPost(t.app, member.token, 'Inside the app');
  });
  afterAll(async () => {
    await t.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it('is the app’s index.html with the page’s head and content in its root', async () => {
    const page = await readPage(t.app, `/@${member.user.username}`);
    expectHtml(page, 200);
    const { document } = page;
    expect(document.querySelector('script[src="/assets/index-abc.js"]')).not.toBeNull();
    expect(document.querySelector('link[href="/assets/index-abc.css"]')).not.toBeNull();
    expect(document.querySelector('link[rel="manifest"]')).not.toBeNull();
    // The app's generic title and description gave way to the page's.
    expect(document.querySelectorAll('title').map((title) => textOf(title))).toEqual([
      `Test ${member.user.lastName} (@${member.user.username}) · Perch`,
    ]);
    expect(document.querySelectorAll('meta[name="description"]')).toHaveLength(1);
    const root = document.querySelectorAll('#root');
    expect(root).toHaveLength(1);
    expect(root[0]?.getAttribute('data-public-page')).toBe('profile');
    expect(textOf(root[0]?.querySelector('.public-post-text'))).toBe('Inside the app');
    expect(document.querySelector('head link[rel="canonical"]')).not.toBeNull();
  });

  it('serves its 404 page in the app too, while other paths still get the app', async () => {
    const missing = await readPage(t.app, '/@nobody_at_all');
    expectNotFound(missing);
    expect(missing.document.querySelector('script[src="/assets/index-abc.js"]')).not.toBeNull();
    const other = await readPage(t.app, '/settings');
    expect(other.response.statusCode).toBe(200);
    expect(other.document.querySelector('#root')?.getAttribute('data-public-page')).toBeUndefined();
  });
});
