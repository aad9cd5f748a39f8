import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { html, type Html } from './html';

/** Which page the root holds, for the web app (data-public-page). */
export type PublicPageKind = 'profile' | 'post' | 'not-found';

/** Writes a whole page: the head's tags and the content inside the app's root element. */
export type PageShell = (kind: PublicPageKind, head: Html, content: Html) => string;

const ROOT = '<div id="root"></div>';

/** Without a built web app (tests, API-only instances): the same page, no scripts or styles. */
export const minimalShell: PageShell = (kind, head, content) =>
  html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        ${head}
      </head>
      <body>
        <div id="root" data-public-page="${kind}">${content}</div>
      </body>
    </html> `.markup;

/**
 * The built app's index.html with the page's own head and content: its scripts and stylesheets
 * load as on any other page. Its generic title and description are taken out for the page's.
 * null when the file does not have the parts the page is put into.
 */
export function shellFromIndex(indexHtml: string): PageShell | null {
  const generic = indexHtml
    .replace(/<title>[\s\S]*?<\/title>\s*/i, '')
    .replace(/<meta\s+name="description"[^>]*>\s*/i, '');
  const headEnd = generic.indexOf('</head>');
  const root = generic.indexOf(ROOT);
  if (headEnd < 0 || root < headEnd) return null;
  const beforeHeadEnd = generic.slice(0, headEnd);
  const toRoot = generic.slice(headEnd, root);
  const afterRoot = generic.slice(root + ROOT.length);
  return (kind, head, content) =>
    `${beforeHeadEnd}${head.markup}\n${toRoot}${
      html`<div id="root" data-public-page="${kind}">${content}</div>`.markup
    }${afterRoot}`;
}

/**
 * The shell pages are written in: the web app's index.html, read once when first needed (a new
 * build comes with a restart), or the minimal document without one.
 */
export function createPageShell(
  webDir: string | null,
  warn: (message: string) => void,
): () => Promise<PageShell> {
  let shell: Promise<PageShell> | null = null;
  async function load(): Promise<PageShell> {
    if (webDir === null) return minimalShell;
    let indexHtml: string;
    try {
      indexHtml = await readFile(path.join(webDir, 'index.html'), 'utf8');
    } catch {
      return minimalShell;
    }
    const fromIndex = shellFromIndex(indexHtml);
    if (!fromIndex) warn('index.html has no <div id="root"></div>; public pages load no app');
    return fromIndex ?? minimalShell;
  }
  return () => (shell ??= load());
}
