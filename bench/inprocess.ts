/**
 * In-process timings of the reads behind the busiest screens, without a socket: the server built by
 * its public entry (`buildApp`) on the run's copy, each read sent with `app.inject` as a signed-in
 * member, one at a time. Also prints the plan of each query a read sends for one member, caught on
 * the database driver itself (lib/query-capture.ts), so the benchmark knows nothing of the server's
 * services or caches.
 */
import type { FastifyInstance } from 'fastify';
import type { Member, RunCopy } from './lib/copy';
import { log } from './lib/log';
import { percentile, Prng } from './lib/prng';
import { captureQueries, explainQueries, type QueryPlan } from './lib/query-capture';
import { searchFragment } from './lib/text';
import { serverEnv } from './run/prepare';
import { auth } from './scenarios';

export interface QueryTiming {
  name: string;
  samples: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

export interface InProcessResult {
  timings: QueryTiming[];
  plans: QueryPlan[];
  /** Why nothing was measured (the server's source did not load), or null. */
  skipped: string | null;
}

/** What each screen asks, as the web app asks it. */
const READS: [name: string, path: (member: Member, prng: Prng) => string][] = [
  ['home feed, latest', () => '/api/posts/feed?sort=latest'],
  ['home feed, trending', () => '/api/posts/feed?sort=trending'],
  ['explore, latest', () => '/api/posts/explore?sort=latest'],
  ['liked, latest', () => '/api/posts/liked'],
  ['member posts, latest', (member) => `/api/posts/user/${member.username}`],
  ['bookmarks', () => '/api/users/bookmark'],
  ['who to follow', () => '/api/users/suggestions'],
  ['member search', (_, prng) => `/api/users?q=${searchFragment(prng)}`],
];

export interface InProcessOptions {
  copy: RunCopy;
  secret: string;
  /** Signed-in members, drawn at random for each request. */
  members: readonly Member[];
  seed: string;
  homeSamples: number;
  otherSamples: number;
  budgetMs: number;
  printSql?: boolean;
}

function summarise(name: string, durations: number[]): QueryTiming {
  const sorted = Float64Array.from(durations).sort();
  const round = (ms: number) => Math.round(ms * 1000) / 1000;
  let sum = 0;
  for (const d of sorted) sum += d;
  return {
    name,
    samples: sorted.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    mean: round(sum / Math.max(1, sorted.length)),
    max: round(sorted[sorted.length - 1] ?? 0),
  };
}

/** The app as `npm start` builds it, on the run's copy, without its socket. */
async function buildInProcess(copy: RunCopy, secret: string): Promise<FastifyInstance> {
  const { buildApp } = await import('../apps/server/src/app/app');
  const { loadConfig } = await import('../apps/server/src/app/config');
  const config = loadConfig({ ...serverEnv(copy, secret), WEB_DIR: '' }, { webDir: null });
  const app = await buildApp(config, { logger: false });
  await app.ready();
  return app;
}

/** One read as `member`; its time in ms. A non-2xx answer is an error: the figure would be wrong. */
async function timedRead(app: FastifyInstance, url: string, member: Member): Promise<number> {
  const started = performance.now();
  const response = await app.inject({
    method: 'GET',
    url,
    headers: auth(member, { prefer: 'return=minimal' }),
  });
  const elapsed = performance.now() - started;
  if (response.statusCode < 200 || response.statusCode >= 300) {
    throw new Error(`${url}: ${response.statusCode} ${response.body.slice(0, 200)}`);
  }
  return elapsed;
}

async function timeReads(app: FastifyInstance, options: InProcessOptions): Promise<QueryTiming[]> {
  const prng = new Prng(options.seed, 'in-process');
  const timings: QueryTiming[] = [];
  for (const [name, pathOf] of READS) {
    const home = name === 'home feed, latest';
    const samples = home ? options.homeSamples : options.otherSamples;
    const next = () => prng.pick(options.members);
    // Warms code paths and statement caches.
    for (let i = 0; i < Math.min(20, samples); i++) {
      const member = next();
      await timedRead(app, pathOf(member, prng), member);
    }
    const durations: number[] = [];
    const deadline = performance.now() + (home ? Infinity : options.budgetMs);
    for (let i = 0; i < samples && performance.now() < deadline; i++) {
      const member = next();
      durations.push(await timedRead(app, pathOf(member, prng), member));
    }
    const timing = summarise(name, durations);
    timings.push(timing);
    log(
      `  ${name.padEnd(22)} ${String(timing.samples).padStart(5)} reads   p50 ${timing.p50.toFixed(2).padStart(8)} ms   p99 ${timing.p99.toFixed(2).padStart(8)} ms   max ${timing.max.toFixed(1).padStart(8)} ms`,
    );
  }
  return timings;
}

/** Of the signed-in members, the one whose following count is the median. */
async function typicalMember(copy: RunCopy, members: readonly Member[]): Promise<Member> {
  const runner = await copy.runner();
  try {
    const rows = await runner.all<{ id: string; following_count: number }>(
      'SELECT id, following_count FROM users',
    );
    const following = new Map(rows.map((row) => [row.id, row.following_count]));
    const sorted = [...members].sort(
      (a, b) => (following.get(a.id) ?? 0) - (following.get(b.id) ?? 0),
    );
    const middle = sorted[Math.floor(sorted.length / 2)];
    if (!middle) throw new Error('no member signed in');
    return middle;
  } finally {
    await runner.close();
  }
}

/** The queries each read sends for the typical member, and their plans. */
async function planReads(app: FastifyInstance, options: InProcessOptions): Promise<QueryPlan[]> {
  const typical = await typicalMember(options.copy, options.members);
  const plans: QueryPlan[] = [];
  for (const [name, pathOf] of READS) {
    const prng = new Prng('explain', name);
    const queries = await captureQueries(() => timedRead(app, pathOf(typical, prng), typical));
    plans.push(...(await explainQueries(options.copy.target, name, queries)));
  }
  return plans;
}

/**
 * Closes the app; a close hook past Fastify's 10 s limit (work the reads left queued, on a busy
 * machine) is reported, not fatal: the figures are taken and the server runs as its own process.
 */
async function closeApp(app: FastifyInstance): Promise<void> {
  const started = performance.now();
  try {
    await app.close();
  } catch (error) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    log(
      `  the in-process app did not close cleanly after ${seconds} s: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

export async function measureInProcess(options: InProcessOptions): Promise<InProcessResult> {
  let app: FastifyInstance;
  try {
    app = await buildInProcess(options.copy, options.secret);
  } catch (error) {
    const skipped = `the server's source did not load (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
    log(`  skipped: ${skipped}`);
    return { timings: [], plans: [], skipped };
  }
  try {
    const timings = await timeReads(app, options);
    log(
      `Query plans of each read for a member with the median following count (${options.copy.target.kind === 'sqlite' ? 'EXPLAIN QUERY PLAN' : 'EXPLAIN ANALYZE'}; queries answered from the server's caches send none):`,
    );
    const plans = await planReads(app, options);
    for (const { name, plan, sql } of plans) {
      log(`  ${name}:`);
      if (options.printSql) log(`    ${sql}`);
      for (const line of plan) log(`      ${line}`);
    }
    return { timings, plans, skipped: null };
  } finally {
    await closeApp(app);
  }
}
