/**
 * Web app figures: the initial JavaScript the browser must fetch (compressed as the build's copies
 * are), in headless Chromium the time from navigation to the home feed showing its first post for
 * a signed-in member, then Lighthouse on the pages a visit starts on (bench/lighthouse.ts).
 * Run by `npm run bench` after the API scenarios (`npm run bench:web` runs only this part).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM } from './lib/chromium';
import { ROOT } from './lib/instance';
import { measureLighthouse, perchPages, type LighthouseResult } from './lighthouse';

export { CHROMIUM };
export const WEB_DIST = path.join(ROOT, 'apps/web/dist');

/** A post card in the feed (apps/web/src/features/posts/PostCard.tsx); skeletons do not match. */
export const POST_CARD_SELECTOR = 'article[data-testid="post-card"]';
/** The app shell of the home screen: its title heading (shown before the feed has posts). */
export const HOME_HEADING = 'Home';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface WebResult {
  skipped: string | null;
  /** What the browser fetches: raw, and as the build's gzip and brotli copies are. */
  initialJs: { files: string[]; bytes: number; gzipBytes: number; brBytes: number } | null;
  /** Median over the runs, ms from navigation start; null when no post card appeared. */
  firstPostMs: number | null;
  firstPostRunsMs: number[];
  shellMs: number | null;
  shellRunsMs: number[];
  runs: number;
  note: string | null;
  /** Lighthouse on the login, Home and public pages; null when not asked for. */
  lighthouse: LighthouseResult | null;
}

/** The JavaScript index.html makes the browser load up front: module scripts and modulepreloads. */
export function initialJavaScript(distDir = WEB_DIST): WebResult['initialJs'] {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const files = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) files.add(match[1] ?? '');
  for (const match of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) {
    files.add(match[1] ?? '');
  }
  let bytes = 0;
  let gzipBytes = 0;
  let brBytes = 0;
  const list = [...files].filter((file) => file !== '' && !/^https?:/.test(file));
  for (const file of list) {
    const content = readFileSync(path.join(distDir, file.replace(/^\//, '')));
    bytes += content.length;
    gzipBytes += gzipSync(content, { level: 9 }).length;
    brBytes += brotliCompressSync(content).length;
  }
  return { files: list, bytes, gzipBytes, brBytes };
}

interface Marks {
  post?: number;
  shell?: number;
}

const median = (values: number[]) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? null;
};

/**
 * Loads `/` signed in as the given member (session put in localStorage before the app starts), in
 * a fresh browser context per run (cold cache), and times the first post card and the app shell.
 */
export async function measureWeb(options: {
  baseURL: string;
  session: { token: string; user: unknown };
  runs: number;
  timeoutMs: number;
  /** Lighthouse runs per page; 0 leaves it out. */
  lighthouseRuns: number;
}): Promise<WebResult> {
  const result: WebResult = {
    skipped: null,
    initialJs: null,
    firstPostMs: null,
    firstPostRunsMs: [],
    shellMs: null,
    shellRunsMs: [],
    runs: 0,
    note: null,
    lighthouse: null,
  };
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) {
    return { ...result, skipped: `${path.relative(ROOT, WEB_DIST)} is missing (npm run build)` };
  }
  result.initialJs = initialJavaScript();
  if (!existsSync(CHROMIUM)) return { ...result, skipped: `${CHROMIUM} is missing` };

  // Records when the selectors first match, from navigation start, as the page builds itself.
  const marks = `(() => {
    localStorage.setItem('loginDetails', ${JSON.stringify(JSON.stringify(options.session))});
    const marks = (window.__benchMarks = {});
    const check = () => {
      if (marks.post === undefined && document.querySelector(${JSON.stringify(POST_CARD_SELECTOR)})) marks.post = performance.now();
      if (marks.shell === undefined && [...document.querySelectorAll('h1')].some((h) => h.textContent.trim() === ${JSON.stringify(HOME_HEADING)})) marks.shell = performance.now();
      return marks.post !== undefined && marks.shell !== undefined;
    };
    new MutationObserver((_, observer) => { if (check()) observer.disconnect(); })
      .observe(document, { childList: true, subtree: true });
  })();`;

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  let lookForPosts = true;
  let entry = '/';
  const problems: string[] = [];
  try {
    for (let run = 0; run < options.runs; run++) {
      const context = await browser.newContext({ baseURL: options.baseURL });
      try {
        const page = await context.newPage();
        await page.addInitScript(marks);
        let response = await page.goto(entry, { waitUntil: 'commit' });
        if (entry === '/' && response !== null && response.status() !== 200) {
          // A signed-in member who opens /login is sent home by the app itself.
          problems.push(
            `GET / answered ${response.status()} instead of the web app; timed from /login, which redirects a signed-in member home`,
          );
          entry = '/login';
          response = await page.goto(entry, { waitUntil: 'commit' });
        }
        if (response !== null && response.status() !== 200) {
          throw new Error(`GET ${entry} answered ${response.status()}`);
        }
        try {
          // A function, not a string: the app's Content-Security-Policy forbids eval.
          await page.waitForFunction(
            (posts) => {
              const marks = (globalThis as { __benchMarks?: Marks }).__benchMarks;
              return posts ? marks?.post !== undefined : marks?.shell !== undefined;
            },
            lookForPosts,
            { timeout: options.timeoutMs, polling: 50 },
          );
        } catch (error) {
          if (!String(error).includes('Timeout')) throw error;
          if (lookForPosts) {
            lookForPosts = false;
            problems.push(
              `no post card (\`${POST_CARD_SELECTOR}\`) appeared on the home feed within ${options.timeoutMs / 1000} s: the feed screen does not show posts yet`,
            );
          }
        }
        const found = await page.evaluate(
          () => (globalThis as { __benchMarks?: Marks }).__benchMarks ?? null,
        );
        if (found?.post !== undefined) result.firstPostRunsMs.push(Math.round(found.post));
        if (found?.shell !== undefined) result.shellRunsMs.push(Math.round(found.shell));
        result.runs++;
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  result.note = problems.length > 0 ? problems.join('; ') : null;
  result.firstPostMs = median(result.firstPostRunsMs);
  result.shellMs = median(result.shellRunsMs);
  if (options.lighthouseRuns > 0) {
    result.lighthouse = await measureLighthouse({
      baseURL: options.baseURL,
      pages: await perchPages(options.baseURL, options.session),
      runs: options.lighthouseRuns,
    });
  }
  return result;
}
