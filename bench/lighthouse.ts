/**
 * Lighthouse (mobile preset: a mid-range phone on a slow 4G link, simulated) on the pages a visit
 * starts on: the login screen, Home signed in, a public profile and a public post. Each page is
 * audited `runs` times from a cold cache and the run with the median performance score is kept,
 * as Lighthouse's own guidance advises for scores that vary between runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { freePort } from './lib/proc';
import { CHROMIUM } from './lib/chromium';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];

/** A page to audit and what it must reach (null: not a target on that page). */
export interface AuditedPage {
  name: string;
  path: string;
  /** Put in localStorage under `loginDetails` before the app starts: the page is seen signed in. */
  session: unknown;
  targets: Record<Category, number | null>;
}

export interface PageFigures {
  name: string;
  path: string;
  scores: Record<Category, number | null>;
  /** Largest and first contentful paint, ms (simulated); total blocking time, ms. */
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  /** Bytes transferred for the whole load (compressed where the server compressed). */
  transferBytes: number;
  /** Every run's performance score, in run order. */
  performanceRuns: number[];
  /** Targets missed, e.g. "performance 91 < 95"; empty when every target is met. */
  missed: string[];
}

/** Largest contentful paint every page must reach on the mobile preset, and the login's bytes. */
export const LCP_TARGET_MS = 2000;
export const LOGIN_BYTES_TARGET = 100 * 1024;

/**
 * One Lighthouse run. The browser is launched for it alone (a persistent profile, so that a
 * session put in localStorage first is there when Lighthouse opens the page; Lighthouse itself
 * empties the cache, and the storage too when the page is audited signed out).
 */
async function auditOnce(baseURL: string, page: AuditedPage) {
  const port = await freePort();
  const profile = mkdtempSync(path.join(os.tmpdir(), 'perch-lighthouse-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', `--remote-debugging-port=${port}`, '--disable-gpu'],
  });
  try {
    if (page.session !== null) {
      // An answer that is not the app (older builds answered /robots.txt with it): the origin
      // gets its storage, the cache stays cold and no service worker is installed.
      const tab = browser.pages()[0] ?? (await browser.newPage());
      await tab.goto(new URL('/api/health', baseURL).href);
      await tab.evaluate((record) => {
        (
          globalThis as unknown as { localStorage: { setItem: (k: string, v: string) => void } }
        ).localStorage.setItem('loginDetails', record);
      }, JSON.stringify(page.session));
    }
    const result = await lighthouse(new URL(page.path, baseURL).href, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      disableStorageReset: page.session !== null,
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${page.path}`);
    return result.lhr;
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

type Result = Awaited<ReturnType<typeof auditOnce>>;

/**
 * A run whose trace Lighthouse could not read (now and then NO_NAVSTART) has no performance
 * figures: it is run again, up to twice.
 */
async function auditRetried(baseURL: string, page: AuditedPage): Promise<Result> {
  let lhr = await auditOnce(baseURL, page);
  for (let retry = 0; retry < 2 && lhr.runtimeError; retry++) lhr = await auditOnce(baseURL, page);
  return lhr;
}

function figuresOf(page: AuditedPage, lhr: Result, performanceRuns: number[]): PageFigures {
  const score = (category: Category) => {
    const value = lhr.categories[category]?.score;
    return typeof value === 'number' ? Math.round(value * 100) : null;
  };
  const numeric = (audit: string) => lhr.audits[audit]?.numericValue ?? Number.NaN;
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, score(c)])) as PageFigures['scores'];
  const figures: PageFigures = {
    name: page.name,
    path: page.path,
    scores,
    lcpMs: Math.round(numeric('largest-contentful-paint')),
    fcpMs: Math.round(numeric('first-contentful-paint')),
    tbtMs: Math.round(numeric('total-blocking-time')),
    cls: Math.round(numeric('cumulative-layout-shift') * 1000) / 1000,
    transferBytes: Math.round(numeric('total-byte-weight')),
    performanceRuns,
    missed: [],
  };
  for (const category of CATEGORIES) {
    const target = page.targets[category];
    const got = scores[category];
    if (target !== null && (got === null || got < target)) {
      figures.missed.push(`${category} ${got ?? 'n/a'} < ${target}`);
    }
  }
  if (!(figures.lcpMs <= LCP_TARGET_MS)) {
    figures.missed.push(`LCP ${figures.lcpMs} ms > ${LCP_TARGET_MS}`);
  }
  return figures;
}

/** The audits that cost a page points (score below 1), for a missed target's explanation. */
export function failedAudits(lhr: Result, category: Category): string[] {
  const refs = lhr.categories[category]?.auditRefs ?? [];
  return refs
    .filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit !== undefined && audit.score !== null && audit.score < 1)
    .map((audit) => `${audit?.id ?? ''}${audit?.displayValue ? ` (${audit.displayValue})` : ''}`);
}

export interface LighthouseResult {
  pages: PageFigures[];
  /** Audits that cost points on the kept runs, by page and category, where a target was missed. */
  lost: Record<string, string[]>;
}

export async function measureLighthouse(options: {
  baseURL: string;
  pages: AuditedPage[];
  runs: number;
}): Promise<LighthouseResult> {
  const result: LighthouseResult = { pages: [], lost: {} };
  for (const page of options.pages) {
    const runs: Result[] = [];
    for (let run = 0; run < options.runs; run++)
      runs.push(await auditRetried(options.baseURL, page));
    const performance = runs.map((lhr) =>
      Math.round((lhr.categories.performance?.score ?? 0) * 100),
    );
    const ranked = runs
      .map((lhr, index) => ({ lhr, score: performance[index] ?? 0 }))
      .sort((a, b) => a.score - b.score);
    const median = ranked[Math.floor((ranked.length - 1) / 2)]?.lhr;
    if (!median) continue;
    const figures = figuresOf(page, median, performance);
    result.pages.push(figures);
    for (const category of CATEGORIES) {
      const target = page.targets[category];
      if (target !== null && (figures.scores[category] ?? 0) < target) {
        result.lost[`${page.name} ${category}`] = failedAudits(median, category);
      }
    }
  }
  return result;
}

/** The targets of the web work, by page (null: not a target there). */
const TARGETS = {
  login: { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 },
  home: { performance: 90, accessibility: 100, 'best-practices': 100, seo: null },
  public: { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 },
} satisfies Record<string, Record<Category, number | null>>;

/**
 * The pages audited: the login screen signed out, Home as the given member, and that member's
 * public profile and newest post's public page (signed out).
 */
export async function perchPages(
  baseURL: string,
  session: { token: string; user: unknown },
): Promise<AuditedPage[]> {
  const username = (session.user as { username?: unknown }).username;
  if (typeof username !== 'string') throw new Error('the bench session has no username');
  const response = await fetch(new URL(`/api/posts/user/${username}`, baseURL), {
    headers: { authorization: `Bearer ${session.token}`, prefer: 'return=minimal' },
  });
  if (!response.ok) throw new Error(`GET /api/posts/user/${username}: ${response.status}`);
  const { posts } = (await response.json()) as { posts: { _id: string }[] };
  const pages: AuditedPage[] = [
    { name: 'login', path: '/login', session: null, targets: TARGETS.login },
    { name: 'home', path: '/', session, targets: TARGETS.home },
    { name: 'profile', path: `/@${username}`, session: null, targets: TARGETS.public },
  ];
  const newest = posts[0];
  if (newest) {
    pages.push({
      name: 'post',
      path: `/@${username}/${newest._id}`,
      session: null,
      targets: TARGETS.public,
    });
  }
  return pages;
}

const pad = (value: string | number, width: number) => String(value).padStart(width);

/** The figures as a table, each page's missed targets after it. */
export function lighthouseLines(result: LighthouseResult): string[] {
  const lines = [
    `  ${'page'.padEnd(8)} ${pad('perf', 5)} ${pad('a11y', 5)} ${pad('bp', 4)} ${pad('seo', 4)} ${pad('LCP ms', 7)} ${pad('FCP ms', 7)} ${pad('TBT ms', 7)} ${pad('CLS', 6)} ${pad('kB', 6)}  perf runs`,
  ];
  for (const page of result.pages) {
    const s = page.scores;
    lines.push(
      `  ${page.name.padEnd(8)} ${pad(s.performance ?? '-', 5)} ${pad(s.accessibility ?? '-', 5)} ${pad(s['best-practices'] ?? '-', 4)} ${pad(s.seo ?? '-', 4)} ${pad(page.lcpMs, 7)} ${pad(page.fcpMs, 7)} ${pad(page.tbtMs, 7)} ${pad(page.cls, 6)} ${pad((page.transferBytes / 1024).toFixed(1), 6)}  ${page.performanceRuns.join(', ')}`,
    );
  }
  const login = result.pages.find((page) => page.name === 'login');
  if (login && login.transferBytes > LOGIN_BYTES_TARGET) {
    lines.push(
      `  login transferred ${(login.transferBytes / 1024).toFixed(1)} kB > ${LOGIN_BYTES_TARGET / 1024} kB target`,
    );
  }
  for (const page of result.pages) {
    lines.push(
      page.missed.length === 0
        ? `  ${page.name}: every target met`
        : `  ${page.name}: missed ${page.missed.join(', ')}`,
    );
  }
  for (const [where, audits] of Object.entries(result.lost)) {
    lines.push(`  ${where} lost points on: ${audits.join(', ')}`);
  }
  return lines;
}
