/**
 * Load benchmark of the production server on a generated instance.
 *
 *   npm run bench [-- --posts N] [--quick] [--only name,...] [--pg] [--explain]
 *
 * Builds the instance when missing (bench/data.ts), copies it so every run starts from the same
 * data, times the server's feed queries in process, then starts `node apps/server/dist/server.js`
 * and drives it with autocannon as real members; a bare Fastify server gives the baseline each
 * figure is compared with. Ends with the web app's figures (bench/web.ts), a check that no write
 * was lost, a table and one `BENCH_JSON {...}` line. See bench/README.md.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createSigner } from 'fast-jwt';
import pg from 'pg';
import type { DatabaseTarget } from '../apps/server/src/db/database';
import { buildInstance, migrateInstance } from './data';
import { eventsReport, measureEvents, type EventsResult } from './events';
import { measureInProcess, type InProcessResult } from './inprocess';
import {
  checkCounters,
  countRows,
  DEFAULT_PG_URL,
  DEFAULT_SEED,
  formatCount,
  isBuilt,
  openRunner,
  parseCount,
  readMeta,
  resolveInstance,
  ROOT,
  secretFileOf,
  type Instance,
  type SqlRunner,
} from './lib/instance';
import { freePort, memoryOf, settle, startServer, type RunningServer } from './lib/proc';
import { Prng } from './lib/prng';
import { formatTable } from './lib/table';
import { postText, commentText, searchFragment } from './lib/text';
import { runSoak, soakSummary, type SoakResult } from './soak';
import { measureWeb, type WebResult } from './web';

const log = (line = '') => {
  console.log(line);
};
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

// ---- options ------------------------------------------------------------------------------------

const { values: args } = parseArgs({
  options: {
    posts: { type: 'string' },
    seed: { type: 'string', default: DEFAULT_SEED },
    'data-dir': { type: 'string' },
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    pg: { type: 'boolean', default: false },
    duration: { type: 'string' },
    'latency-duration': { type: 'string' },
    members: { type: 'string', default: '200' },
    explain: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    soak: { type: 'string' },
  },
});

const quick = args.quick;
const soakSeconds = args.soak === undefined ? 0 : Number(args.soak);
if (!Number.isInteger(soakSeconds) || soakSeconds < 0) {
  throw new Error(`--soak takes a number of seconds, not ${String(args.soak)}`);
}
const usePostgres = args.pg || Boolean(process.env.DATABASE_URL?.trim());
const envUrl = process.env.DATABASE_URL?.trim() ?? '';
const databaseUrl = usePostgres ? (envUrl === '' ? DEFAULT_PG_URL : envUrl) : null;
const posts = args.posts
  ? parseCount(args.posts)
  : quick
    ? 10_000
    : usePostgres
      ? 100_000
      : 1_000_000;
const THROUGHPUT_CONNECTIONS = 50;
const LATENCY_CONNECTIONS = 10;
const throughputSeconds = Number(args.duration ?? (quick ? 3 : 10));
const latencySeconds = Number(args['latency-duration'] ?? (quick ? 2 : 5));
const warmupSeconds = quick ? 0 : 1;
const timeoutSeconds = quick ? 10 : 30;
const only = args.only ? new Set(args.only.split(',').map((name) => name.trim())) : null;
const wanted = (name: string) => only === null || only.has(name);

// ---- builds -------------------------------------------------------------------------------------

function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (target: string) => {
    if (!existsSync(target)) return;
    const stat = statSync(target);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(target)) {
        if (entry !== 'node_modules' && entry !== 'dist') visit(path.join(target, entry));
      }
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const target of paths) visit(path.join(ROOT, target));
  return newest;
}

function isStale(output: string, inputs: string[]): boolean {
  const file = path.join(ROOT, output);
  return !existsSync(file) || statSync(file).mtimeMs < newestMtime(inputs);
}

function npm(args: string[]) {
  execFileSync('npm', args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
}

function ensureBuilds(): void {
  const contract = ['packages/contract/src', 'packages/contract/package.json'];
  if (
    isStale('apps/server/dist/server.js', ['apps/server/src', 'apps/server/build.mjs', ...contract])
  ) {
    log('Building the server (dist is missing or older than its sources)…');
    npm(['run', 'build', '-w', '@perch/server']);
  }
  const webInputs = [
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/public',
    'apps/web/vite.config.ts',
    ...contract,
  ];
  if (wanted('web') && isStale('apps/web/dist/index.html', webInputs)) {
    log('Building the web app (dist is missing or older than its sources)…');
    try {
      npm(['run', 'build', '-w', '@perch/web']);
    } catch {
      log('  the web app did not build; its figures will be skipped');
    }
  }
}

// ---- the instance and its working copy ----------------------------------------------------------

interface RunCopy {
  dataDir: string;
  databaseUrl: string | null;
  target: DatabaseTarget;
  runner: () => Promise<SqlRunner>;
  /** A connection that may write (the benchmark's sessions), used before the server starts. */
  writer: () => Promise<SqlRunner>;
}

async function workingCopy(instance: Instance): Promise<RunCopy> {
  const dataDir = `${instance.dataDir}.run`;
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(path.join(dataDir, 'secrets'), { recursive: true, mode: 0o700 });
  mkdirSync(path.join(dataDir, 'media'), { recursive: true });
  copyFileSync(secretFileOf(instance), secretFileOf({ dataDir }));
  if (instance.kind === 'sqlite') {
    const file = path.join(dataDir, 'perch.db');
    copyFileSync(instance.sqliteFile, file);
    return {
      dataDir,
      databaseUrl: null,
      target: { kind: 'sqlite', filename: file },
      runner: () => openRunner({ kind: 'sqlite', file, readonly: true }),
      writer: () => openRunner({ kind: 'sqlite', file }),
    };
  }
  const source = new URL(instance.databaseUrl ?? '');
  const name = decodeURIComponent(source.pathname.slice(1));
  const runName = `${name}_run`;
  const admin = new URL(source);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${runName}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${runName}" TEMPLATE "${name}"`);
  } finally {
    await client.end();
  }
  const run = new URL(source);
  run.pathname = `/${runName}`;
  const url = run.toString();
  return {
    dataDir,
    databaseUrl: url,
    target: { kind: 'postgres', url },
    runner: () => openRunner({ kind: 'postgres', url }),
    writer: () => openRunner({ kind: 'postgres', url }),
  };
}

/**
 * A session and its token for each member, as a sign-in makes them (tokens name their session),
 * without paying for 200 password checks.
 */
async function signIn(
  copy: RunCopy,
  secret: string,
  chosen: { index: number; id: string; username: string }[],
): Promise<Member[]> {
  const lifetime = 24 * 3600 * 1000;
  const sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: lifetime });
  const now = Date.now();
  const writer = await copy.writer();
  try {
    const members: Member[] = [];
    for (const { index, id, username } of chosen) {
      const sid = `BENCH${String(index).padStart(21, '0')}`;
      await writer.all(
        'INSERT INTO sessions (id, user_id, user_agent, created_at, last_used_at, expires_at) ' +
          'VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
        [sid, id, 'perch-bench', now, now, now + lifetime],
      );
      members.push({ index, id, username, token: sign({ username, sub: id, sid }) });
    }
    return members;
  } finally {
    await writer.close();
  }
}

// ---- load generation ----------------------------------------------------------------------------

interface Member {
  index: number;
  id: string;
  username: string;
  token: string;
}

type Request = autocannon.Request;

interface Scenario {
  name: string;
  what: string;
  write: boolean;
  /** Fresh request templates for one autocannon run. */
  requests: () => Request[];
}

interface RunFigures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

interface ScenarioResult {
  name: string;
  what: string;
  rps: number;
  ratio: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  throughput: RunFigures;
  latency: RunFigures;
  rssMB: number | null;
  sampleFailure: string | null;
}

function fire(url: string, requests: Request[], connections: number, duration: number) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      { url, connections, duration, timeout: timeoutSeconds, pipelining: 1, requests },
      (error, result) => {
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve(result);
      },
    );
  });
}

function figures(result: autocannon.Result): RunFigures {
  const completed = result.requests.total;
  return {
    rps: Math.round((completed / Math.max(result.duration, 0.001)) * 10) / 10,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: completed,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
  };
}

/**
 * With the server stopped, the copy's counters must equal their rows and the rows added must match
 * the writes answered 2xx. Requests still in flight when a timed run stopped were applied or not
 * (their answers were never read), so each change must lie between what was answered 2xx and what
 * was sent.
 */
async function verifyWrites(
  copy: RunCopy,
  before: Record<string, number>,
  writes: { sent: Record<string, number>; succeeded: Record<string, number> },
) {
  log();
  log('Checking the database after the run (server stopped):');
  const check = await copy.runner();
  const after = await countRows(check);
  const mismatches = await checkCounters(check);
  await check.close();
  const ok = (key: string) => writes.succeeded[key] ?? 0;
  const out = (key: string) => writes.sent[key] ?? 0;
  const added = (table: string) => (after[table] ?? 0) - (before[table] ?? 0);
  const expectations: { what: string; low: number; high: number; actual: number }[] = [
    {
      what: 'posts added = create-post answered 2xx (+ in flight)',
      low: ok('create-post'),
      high: out('create-post'),
      actual: added('posts'),
    },
    {
      what: 'comments added = comment answered 2xx (+ in flight)',
      low: ok('comment'),
      high: out('comment'),
      actual: added('comments'),
    },
    {
      what: 'likes added = likes − dislikes answered 2xx (± in flight)',
      low: ok('like:on') - out('like:off'),
      high: out('like:on') - ok('like:off'),
      actual: added('likes'),
    },
    {
      what: 'bookmarks added = added − removed answered 2xx (± in flight)',
      low: ok('bookmark:on') - out('bookmark:off'),
      high: out('bookmark:on') - ok('bookmark:off'),
      actual: added('bookmarks'),
    },
  ];
  let lost = false;
  for (const e of expectations) {
    const good = e.low <= e.actual && e.actual <= e.high;
    lost ||= !good;
    const range =
      e.low === e.high ? formatCount(e.low) : `${formatCount(e.low)}…${formatCount(e.high)}`;
    log(`  ${good ? 'ok  ' : 'FAIL'} ${e.what}: expected ${range}, found ${formatCount(e.actual)}`);
  }
  for (const [name, n] of Object.entries(mismatches)) {
    lost ||= n > 0;
    log(
      `  ${n === 0 ? 'ok  ' : 'FAIL'} ${name} equals its rows${n === 0 ? '' : ` (${n} rows differ)`}`,
    );
  }
  log(
    `  writes answered 2xx / sent: ${['like:on', 'like:off', 'bookmark:on', 'bookmark:off', 'comment', 'create-post'].map((k) => `${k} ${formatCount(ok(k))}/${formatCount(out(k))}`).join(', ')}`,
  );
  return { lost, expectations, mismatches };
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

interface RunReport {
  variant: string;
  members: number;
  meta: ReturnType<typeof readMeta>;
  started: number;
  results: ScenarioResult[];
  baseline: ScenarioResult | null;
  server: { peakRssMB: number; maxSampledRssMB: number; startupSeconds: number } | null;
  inProcess: InProcessResult | null;
  web: WebResult | null;
  events: EventsResult | null;
  soak: SoakResult | null;
  verification: Awaited<ReturnType<typeof verifyWrites>>;
}

/** Prints the run's table and figures, keeps them in bench-data/results, and prints BENCH_JSON. */
function printReport(run: RunReport): void {
  const { variant, meta, started, results, baseline, server, inProcess, web, events, soak } = run;
  const { lost, expectations, mismatches } = run.verification;
  const table: string[][] = [
    ['scenario', 'req/s', '× base', 'p50 ms', 'p99 ms', 'errors', 'non-2xx'],
  ];
  for (const r of baseline ? [baseline, ...results] : results) {
    table.push([
      r.name,
      r.rps.toFixed(0),
      r.ratio.toFixed(3),
      String(r.p50),
      String(r.p99),
      String(r.errors),
      String(r.non2xx),
    ]);
  }
  log();
  log(
    `Results: ${variant}, ${formatCount(posts)} posts, ${formatCount(run.members)} members, ${process.env.WORKERS ?? '1'} server process(es); req/s with ${THROUGHPUT_CONNECTIONS} connections, latency with ${LATENCY_CONNECTIONS}`,
  );
  if (table.length > 1) for (const line of formatTable(table)) log(line);
  if (server) {
    log(
      `Server peak RSS (VmHWM): ${server.peakRssMB} MB; highest sampled VmRSS: ${server.maxSampledRssMB} MB; started in ${server.startupSeconds} s`,
    );
  }
  if (inProcess) {
    const home = inProcess.timings.find((t) => t.name === 'home feed, latest');
    if (home)
      log(
        `In-process home feed (latest, 20 posts), ${home.samples} members: p50 ${home.p50} ms, p99 ${home.p99} ms`,
      );
  }
  if (web) {
    if (web.initialJs) {
      log(
        `Web: initial JS ${(web.initialJs.gzipBytes / 1000).toFixed(1)} kB gzipped (${(web.initialJs.bytes / 1000).toFixed(1)} kB raw, ${web.initialJs.files.length} file${web.initialJs.files.length === 1 ? '' : 's'})`,
      );
    }
    if (!web.skipped) {
      log(
        `Web: first post on the home feed ${web.firstPostMs === null ? 'n/a' : `${web.firstPostMs} ms`} (median of ${web.runs} cold loads); home heading ${web.shellMs ?? 'n/a'} ms`,
      );
    }
    if (web.note) log(`Web: ${web.note}`);
  }
  if (events) log(['', ...eventsReport(events), ''].join('\n'));
  log(
    `Writes: ${lost ? 'SOMETHING WAS LOST (see above)' : 'nothing lost'}. Total time ${seconds(started)} s.`,
  );

  const report = {
    variant,
    posts,
    members: run.members,
    seed: args.seed,
    quick,
    connections: { throughput: THROUGHPUT_CONNECTIONS, latency: LATENCY_CONNECTIONS },
    durations: { throughput: throughputSeconds, latency: latencySeconds },
    baseline: baseline && {
      rps: baseline.rps,
      p50: baseline.p50,
      p99: baseline.p99,
      errors: baseline.errors,
      non2xx: baseline.non2xx,
    },
    scenarios: results.map((r) => ({
      name: r.name,
      rps: r.rps,
      ratio: r.ratio,
      p50: r.p50,
      p99: r.p99,
      errors: r.errors,
      non2xx: r.non2xx,
      p50At50: r.throughput.p50,
      p99At50: r.throughput.p99,
      rssMB: r.rssMB,
    })),
    server,
    inProcess: inProcess?.timings ?? null,
    web: web && {
      skipped: web.skipped,
      initialJsBytes: web.initialJs?.bytes ?? null,
      initialJsGzipBytes: web.initialJs?.gzipBytes ?? null,
      firstPostMs: web.firstPostMs,
      shellMs: web.shellMs,
      note: web.note,
    },
    events,
    soak,
    verification: { lost, expectations, counters: mismatches },
    instance: { loadSeconds: meta?.loadSeconds ?? null, rows: meta?.rows ?? null },
    totalSeconds: Number(seconds(started)),
  };
  const resultsDir = path.join(ROOT, 'bench-data', 'results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    path.join(
      resultsDir,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${variant}-${posts}${quick ? '-quick' : ''}.json`,
    ),
    `${JSON.stringify({ ...report, plans: inProcess?.plans ?? null }, null, 2)}\n`,
  );
  log(`BENCH_JSON ${JSON.stringify(report)}`);
}

async function main(): Promise<void> {
  const started = performance.now();
  let step = started;
  const instance = resolveInstance({
    posts,
    seed: args.seed,
    dataDir: args['data-dir'],
    databaseUrl,
  });
  const variant = instance.kind;
  log(
    `Perch load benchmark: ${variant}, ${formatCount(posts)} posts${quick ? ', quick' : ''}; ${THROUGHPUT_CONNECTIONS} connections × ${throughputSeconds} s for throughput, ${LATENCY_CONNECTIONS} × ${latencySeconds} s for latency`,
  );

  if (isBuilt(instance)) {
    log(
      `Reusing the instance in ${path.relative(ROOT, instance.dataDir)} (built ${readMeta(instance)?.builtAt ?? '?'})`,
    );
  } else {
    await buildInstance(instance);
  }
  const meta = readMeta(instance);
  if (!args['no-build']) ensureBuilds();
  step = performance.now();
  const migrated = await migrateInstance(instance);
  if (migrated > 0) {
    log(
      `Applied ${migrated} migration${migrated === 1 ? '' : 's'} added since the instance was built, then ANALYZE (${seconds(step)} s)`,
    );
  }

  step = performance.now();
  const copy = await workingCopy(instance);
  log(`Working copy ready in ${seconds(step)} s (${copy.databaseUrl ?? copy.dataDir})`);

  // ---- members, posts and what they already like or bookmark ----
  const prng = new Prng(args.seed, 'load');
  const runner = await copy.runner();
  const before = await countRows(runner);
  const allMembers = await runner.all<{ id: string; username: string }>(
    'SELECT id, username FROM users ORDER BY id',
  );
  const postIds = (await runner.all<{ id: string }>('SELECT id FROM posts ORDER BY id')).map(
    (row) => row.id,
  );
  const secret = readFileSync(secretFileOf({ dataDir: copy.dataDir }), 'utf8').trim();
  const memberCount = Math.min(parseCount(args.members), allMembers.length);
  const chosen = new Set<number>();
  while (chosen.size < memberCount) chosen.add(prng.int(allMembers.length));
  const members = await signIn(
    copy,
    secret,
    [...chosen].map((index) => ({ index, ...(allMembers[index] ?? { id: '', username: '' }) })),
  );
  const liked = new Set<string>();
  const bookmarked = new Set<string>();
  for (const member of members) {
    for (const row of await runner.all<{ post_id: string }>(
      'SELECT post_id FROM likes WHERE user_id = $1',
      [member.id],
    )) {
      liked.add(`${member.index}:${row.post_id}`);
    }
    for (const row of await runner.all<{ post_id: string }>(
      'SELECT post_id FROM bookmarks WHERE user_id = $1',
      [member.id],
    )) {
      bookmarked.add(`${member.index}:${row.post_id}`);
    }
  }
  await runner.close();

  // ---- in-process query timings ----
  let inProcess: InProcessResult | null = null;
  if (wanted('inprocess')) {
    log();
    log("In-process queries (the server's services on createDatabase, no HTTP):");
    inProcess = await measureInProcess({
      target: copy.target,
      seed: args.seed,
      homeSamples: 2000,
      otherSamples: quick ? 100 : 300,
      budgetMs: quick ? 1000 : 10_000,
      log,
      printSql: args.explain,
    });
  }

  // ---- request builders ----
  let turn = 0;
  if (members.length === 0) throw new Error('the instance has no members');
  const nextMember = (): Member => {
    const member = members[turn++ % members.length];
    if (!member) throw new Error('no member');
    return member;
  };
  const recent = Math.max(1, Math.floor(postIds.length * 0.02));
  const pickPost = () =>
    (prng.chance(0.5)
      ? postIds[postIds.length - 1 - prng.int(recent)]
      : postIds[prng.int(postIds.length)]) ?? '';
  const pickUsername = () => allMembers[prng.int(allMembers.length)]?.username ?? '';
  const auth = (member: Member, extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${member.token}`,
    ...extra,
  });
  const writeHeaders = (member: Member, json: boolean) =>
    auth(member, {
      prefer: 'return=minimal',
      ...(json ? { 'content-type': 'application/json' } : {}),
    });

  /** Writes sent and writes answered 2xx, by kind: what the database must show afterwards. */
  const sent: Record<string, number> = {};
  const succeeded: Record<string, number> = {};
  const failures = new Map<string, string>();
  let current = '';
  const bump = (counts: Record<string, number>, key: string) => {
    counts[key] = (counts[key] ?? 0) + 1;
  };
  let serverErrors = 0;
  const record = (key: string) => (status: number, body: string) => {
    if (status >= 500) serverErrors += 1;
    if (status >= 200 && status < 300) bump(succeeded, key);
    else if (!failures.has(current)) failures.set(current, `${status} ${body.slice(0, 200)}`);
  };
  /**
   * How a read is sent: as Perch's web app sends it (token, `Prefer: return=minimal`: no embedded
   * arrays), as a client of the original API does (the session cookie only: the spec's arrays),
   * or with the token but no preference (the default answer, arrays included).
   */
  type ReadAs = 'app' | 'spec-client' | 'full';
  const readHeaders = (readAs: ReadAs): Record<string, string> => {
    const member = nextMember();
    if (readAs === 'spec-client') return { cookie: `perch_session=${member.token}` };
    return readAs === 'app' ? auth(member, { prefer: 'return=minimal' }) : auth(member);
  };
  const get = (key: string, pathOf: () => string, readAs: ReadAs = 'app'): Request => ({
    method: 'GET',
    setupRequest: (request) => ({ ...request, path: pathOf(), headers: readHeaders(readAs) }),
    onResponse: record(key),
  });

  /**
   * (member, post) pairs not liked (or bookmarked) in the instance and never used before in this
   * benchmark, so that each on/off pair succeeds even when a run stopped between its two requests.
   */
  const pairs = (taken: Set<string>) => () => {
    for (;;) {
      const member = nextMember();
      const postId = pickPost();
      const key = `${member.index}:${postId}`;
      if (taken.has(key)) continue;
      taken.add(key);
      return { member, postId };
    }
  };
  type Pair = ReturnType<ReturnType<typeof pairs>>;
  const toggle = (key: string, existing: Set<string>, on: string, off: string): Request[] => {
    const next = pairs(existing);
    return [
      {
        method: 'POST',
        setupRequest: (request, context) => {
          const pair = next();
          (context as { pair?: Pair }).pair = pair;
          bump(sent, `${key}:on`);
          return {
            ...request,
            path: `${on}${pair.postId}`,
            headers: writeHeaders(pair.member, false),
          };
        },
        onResponse: record(`${key}:on`),
      },
      {
        method: 'POST',
        setupRequest: (request, context) => {
          const pair = (context as { pair?: Pair }).pair ?? next();
          bump(sent, `${key}:off`);
          return {
            ...request,
            path: `${off}${pair.postId}`,
            headers: writeHeaders(pair.member, false),
          };
        },
        onResponse: record(`${key}:off`),
      },
    ];
  };

  const scenarios: Scenario[] = [
    {
      name: 'health',
      what: 'GET /api/health (framework + SELECT 1)',
      write: false,
      requests: () => [get('health', () => '/api/health')],
    },
    {
      name: 'feed-latest',
      what: 'GET /api/posts/feed?sort=latest',
      write: false,
      requests: () => [get('feed-latest', () => '/api/posts/feed?sort=latest')],
    },
    {
      name: 'feed-trending',
      what: 'GET /api/posts/feed?sort=trending',
      write: false,
      requests: () => [get('feed-trending', () => '/api/posts/feed?sort=trending')],
    },
    {
      name: 'explore',
      what: 'GET /api/posts/explore',
      write: false,
      requests: () => [get('explore', () => '/api/posts/explore?sort=latest')],
    },
    {
      name: 'profile',
      what: 'GET /api/users/{username}',
      write: false,
      requests: () => [get('profile', () => `/api/users/${pickUsername()}`)],
    },
    {
      name: 'user-posts',
      what: 'GET /api/posts/user/{username}',
      write: false,
      requests: () => [get('user-posts', () => `/api/posts/user/${pickUsername()}`)],
    },
    {
      name: 'liked',
      what: 'GET /api/posts/liked',
      write: false,
      requests: () => [get('liked', () => '/api/posts/liked')],
    },
    {
      name: 'bookmarks',
      what: 'GET /api/users/bookmark',
      write: false,
      requests: () => [get('bookmarks', () => '/api/users/bookmark')],
    },
    {
      name: 'search',
      what: 'GET /api/users?q=<2-3 letters>',
      write: false,
      requests: () => [get('search', () => `/api/users?q=${searchFragment(prng)}`)],
    },
    {
      name: 'suggestions',
      what: 'GET /api/users/suggestions',
      write: false,
      requests: () => [get('suggestions', () => '/api/users/suggestions')],
    },
    {
      name: 'posts-spec',
      what: "GET /api/posts as the spec's client reads it (cookie; comments, likedBy embedded)",
      write: false,
      requests: () => [get('posts-spec', () => '/api/posts?sort=latest', 'spec-client')],
    },
    {
      name: 'feed-latest-full',
      what: 'GET /api/posts/feed?sort=latest with no Prefer (comments embedded)',
      write: false,
      requests: () => [get('feed-latest-full', () => '/api/posts/feed?sort=latest', 'full')],
    },
    {
      name: 'profile-spec',
      what: "GET /api/users/{username} as the spec's client reads it (followers, following)",
      write: false,
      requests: () => [get('profile-spec', () => `/api/users/${pickUsername()}`, 'spec-client')],
    },
    {
      name: 'like',
      what: 'POST like then dislike (same member and post)',
      write: true,
      requests: () => toggle('like', liked, '/api/posts/like/', '/api/posts/dislike/'),
    },
    {
      name: 'bookmark',
      what: 'POST bookmark then remove-bookmark',
      write: true,
      requests: () =>
        toggle('bookmark', bookmarked, '/api/users/bookmark/', '/api/users/remove-bookmark/'),
    },
    {
      name: 'comment',
      what: 'POST /api/comments/add/{postId}',
      write: true,
      requests: () => [
        {
          method: 'POST',
          setupRequest: (request) => {
            bump(sent, 'comment');
            return {
              ...request,
              path: `/api/comments/add/${pickPost()}`,
              headers: writeHeaders(nextMember(), true),
              body: JSON.stringify({ commentData: { text: commentText(prng) } }),
            };
          },
          onResponse: record('comment'),
        },
      ],
    },
    {
      name: 'create-post',
      what: 'POST /api/posts',
      write: true,
      requests: () => [
        {
          method: 'POST',
          setupRequest: (request) => {
            bump(sent, 'create-post');
            return {
              ...request,
              path: '/api/posts',
              headers: writeHeaders(nextMember(), true),
              body: JSON.stringify({ postData: { content: postText(prng) } }),
            };
          },
          onResponse: record('create-post'),
        },
      ],
    },
  ];
  const selected = scenarios.filter((scenario) => wanted(scenario.name));
  const known = new Set([
    ...scenarios.map((scenario) => scenario.name),
    'inprocess',
    'web',
    'events',
  ]);
  const unknown = [...(only ?? [])].filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new Error(`unknown --only name ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  }

  const runScenario = async (
    server: RunningServer,
    scenario: Scenario,
    healthPath: string,
    baselineRps: number,
  ): Promise<ScenarioResult> => {
    current = scenario.name;
    if (warmupSeconds > 0) {
      await fire(server.url, scenario.requests(), LATENCY_CONNECTIONS, warmupSeconds);
      await settle(server.url, healthPath);
    }
    const throughput = figures(
      await fire(server.url, scenario.requests(), THROUGHPUT_CONNECTIONS, throughputSeconds),
    );
    await settle(server.url, healthPath);
    const latency = figures(
      await fire(server.url, scenario.requests(), LATENCY_CONNECTIONS, latencySeconds),
    );
    await settle(server.url, healthPath);
    const memory = memoryOf(server.pid);
    const result: ScenarioResult = {
      name: scenario.name,
      what: scenario.what,
      rps: throughput.rps,
      ratio: baselineRps > 0 ? Math.round((throughput.rps / baselineRps) * 1000) / 1000 : 1,
      p50: latency.p50,
      p99: latency.p99,
      errors: throughput.errors + latency.errors,
      non2xx: throughput.non2xx + latency.non2xx,
      throughput,
      latency,
      rssMB: memory ? mb(memory.rss) : null,
      sampleFailure: failures.get(scenario.name) ?? null,
    };
    log(
      `  ${scenario.name.padEnd(20)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${String(result.p50).padStart(5)} ms  p99 ${String(result.p99).padStart(6)} ms  errors ${result.errors}  non-2xx ${result.non2xx}${result.sampleFailure ? `  (first failure: ${result.sampleFailure})` : ''}`,
    );
    return result;
  };

  /** The live-events set (bench/events.ts): streams for the members, then this run's scenarios. */
  const runEvents = (perch: RunningServer, baselineRps: number) => {
    log();
    log('Live events (GET /api/events):');
    const named = (name: string) => {
      const scenario = scenarios.find((s) => s.name === name);
      if (!scenario) throw new Error(`no scenario ${name}`);
      return scenario;
    };
    const both = (counts: Record<string, number>) =>
      (counts['like:on'] ?? 0) + (counts['like:off'] ?? 0);
    return measureEvents({
      url: perch.url,
      members,
      streams: 200,
      nextLike: pairs(liked),
      recordWrite: (key, status) => {
        bump(sent, key);
        if (status >= 200 && status < 300) bump(succeeded, key);
      },
      likeWrites: () => ({ answered: both(succeeded), sent: both(sent) }),
      warmUp: async (names) => {
        const requests = names.flatMap((name) => named(name).requests());
        await fire(perch.url, requests, LATENCY_CONNECTIONS, 3);
        await settle(perch.url, '/api/health');
      },
      run: (name, label) =>
        runScenario(perch, { ...named(name), name: name + label }, '/api/health', baselineRps),
      likes: 200,
      intervalMs: 20,
      timeoutMs: timeoutSeconds * 1000,
      log,
    });
  };

  const results: ScenarioResult[] = [];
  let baseline: ScenarioResult | null = null;
  let server: { peakRssMB: number; maxSampledRssMB: number; startupSeconds: number } | null = null;
  let web: WebResult | null = null;
  let events: EventsResult | null = null;
  let soak: SoakResult | null = null;
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SEED: 'none',
    AUTH_RATE_LIMIT: '0',
    DATA_DIR: copy.dataDir,
    DATABASE_URL: copy.databaseUrl ?? '',
    JWT_SECRET: secret,
  };

  if (selected.length > 0) {
    log();
    log('Baseline: bare Fastify, one route, small JSON (same autocannon settings):');
    const port = await freePort();
    const bare = await startServer({
      name: 'baseline server',
      command: process.execPath,
      args: [path.join(ROOT, 'bench/baseline-server.mjs')],
      env: { ...process.env, PORT: String(port) },
      port,
      healthPath: '/api/bench',
      cwd: ROOT,
    });
    try {
      baseline = await runScenario(
        bare,
        {
          name: 'baseline',
          what: 'bare Fastify GET /api/bench',
          write: false,
          requests: () => [get('baseline', () => '/api/bench')],
        },
        '/api/bench',
        0,
      );
    } finally {
      await bare.stop();
    }
  }

  if (selected.length > 0 || wanted('web') || wanted('events')) {
    log();
    log('Perch (node apps/server/dist/server.js):');
    const port = await freePort();
    step = performance.now();
    const perch = await startServer({
      name: 'Perch server',
      command: process.execPath,
      args: [path.join(ROOT, 'apps/server/dist/server.js')],
      env: { ...env, PORT: String(port) },
      port,
      healthPath: '/api/health',
      cwd: ROOT,
    });
    const startupSeconds = Number(seconds(step));
    try {
      const probe = members[0];
      const me = probe ? await fetch(`${perch.url}/api/auth/me`, { headers: auth(probe) }) : null;
      if (!me?.ok)
        throw new Error(
          `a bench member's token was refused: ${String(me?.status)} ${await me?.text()}`,
        );
      const session = {
        token: probe?.token ?? '',
        user: ((await me.json()) as { user: unknown }).user,
      };

      if (selected.length > 0) {
        // Warm the JIT and caches with a little of everything first.
        await fire(
          perch.url,
          selected.filter((s) => !s.write).flatMap((s) => s.requests()),
          LATENCY_CONNECTIONS,
          quick ? 1 : 3,
        );
        await settle(perch.url, '/api/health');
      }
      if (soakSeconds > 0) {
        log();
        log(
          `Soak: every selected scenario mixed, ${LATENCY_CONNECTIONS} connections, ${soakSeconds} s:`,
        );
        current = 'soak';
        const mixed = selected.flatMap((s) => s.requests());
        soak = await runSoak({
          seconds: soakSeconds,
          sliceSeconds: 30,
          fire: async (length) =>
            figures(await fire(perch.url, mixed, LATENCY_CONNECTIONS, length)),
          rssMB: () => {
            const memory = memoryOf(perch.pid);
            return memory ? mb(memory.rss) : null;
          },
          serverErrors: () => serverErrors,
          log,
        });
        log(soakSummary(soak));
      } else {
        for (const scenario of selected) {
          results.push(await runScenario(perch, scenario, '/api/health', baseline?.rps ?? 0));
        }
      }
      if (wanted('events')) events = await runEvents(perch, baseline?.rps ?? 0);

      if (wanted('web')) {
        log();
        log('Web app:');
        web = await measureWeb({
          baseURL: perch.url,
          session,
          runs: quick ? 3 : 5,
          timeoutMs: quick ? 4000 : 10_000,
        });
        if (web.skipped) log(`  skipped: ${web.skipped}`);
      }
      const memory = memoryOf(perch.pid);
      server = {
        peakRssMB: memory ? mb(memory.peak) : 0,
        maxSampledRssMB: mb(perch.maxSampledRss()),
        startupSeconds,
      };
    } catch (error) {
      log(perch.logs());
      throw error;
    } finally {
      await perch.stop();
    }
  }

  // ---- nothing lost ----
  const { lost, expectations, mismatches } = await verifyWrites(copy, before, { sent, succeeded });

  printReport({
    variant,
    members: meta?.members ?? allMembers.length,
    meta,
    started,
    results,
    baseline,
    server,
    inProcess,
    web,
    events,
    soak,
    verification: { lost, expectations, mismatches },
  });
  if (lost) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
