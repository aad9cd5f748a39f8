/**
 * Load benchmark of the production server on a generated instance.
 *
 *   npm run bench [-- --posts N] [--quick] [--only name,...] [--pg] [--explain] [--growth]
 *
 * Builds the instance when missing (bench/data.ts), copies it so every run starts from the same
 * data, times the server's feed queries in process, then starts `node apps/server/dist/server.js`
 * and drives it with autocannon as real members (bench/scenarios.ts); a bare Fastify server gives
 * the baseline each figure is compared with. Ends with the web app's figures (bench/web.ts), every
 * member's Home against the pull query (bench/timeline-check.ts), a check that no write was lost
 * (bench/verify.ts), the reads' growth against a run on 10,000 posts (bench/growth.ts), a table
 * and one `BENCH_JSON {...}` line (bench/report.ts). See bench/README.md.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildInstance, migrateInstance } from './data';
import { measureEvents, type EventsResult } from './events';
import { measureGrowth, SMALL_POSTS, type GrowthResult } from './growth';
import { measureInProcess, type InProcessResult } from './inprocess';
import { ensureBuilds } from './lib/builds';
import { signIn, workingCopy, type Member, type RunCopy } from './lib/copy';
import { warmTimelines } from './lib/timelines-ready';
import {
  countRows,
  DEFAULT_PG_URL,
  DEFAULT_SEED,
  formatCount,
  isBuilt,
  parseCount,
  readMeta,
  resolveInstance,
  ROOT,
  secretFileOf,
} from './lib/instance';
import {
  figures,
  fire,
  kb,
  mb,
  type Request,
  type Scenario,
  type ScenarioResult,
} from './lib/load';
import {
  cpuSecondsOf,
  freePort,
  memoryOf,
  serverNodeFlags,
  settle,
  startServer,
  type RunningServer,
} from './lib/proc';
import { Prng } from './lib/prng';
import { failed, printReport } from './report';
import { auth, createLoad, type WriteLog } from './scenarios';
import { runSoak, soakSummary, type SoakResult } from './soak';
import { checkTimelines, timelineReport, type TimelineResult } from './timeline-check';
import { verifyWrites } from './verify';
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
    profile: { type: 'string' },
    growth: { type: 'boolean', default: false },
    'no-growth': { type: 'boolean', default: false },
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
/**
 * Every member's Home is checked whenever anything but the in-process timings and the web app
 * runs (any scenario, the live events, or `timelines` itself).
 */
const checksTimelines =
  only === null || [...only].some((name) => name !== 'inprocess' && name !== 'web');
/**
 * The reads again on 10,000 posts, for their growth: in full runs of a larger instance, or when
 * asked (`--growth`); never with `--no-growth`.
 */
const measuresGrowth =
  !args['no-growth'] &&
  posts > SMALL_POSTS &&
  soakSeconds === 0 &&
  (args.growth || (only === null && !quick));
/** The Home check: requests in flight, every n-th member's second page, retry window. */
const TIMELINE_CHECK = { concurrency: 16, secondPageEvery: 10, settleMs: 10_000 };

const fireFor = (url: string, requests: Request[], connections: number, duration: number) =>
  fire(url, requests, connections, duration, timeoutSeconds);

// ---- members ------------------------------------------------------------------------------------

/**
 * The members the load acts as (`--members`, drawn at random), the most-followed member, and
 * with the Home check every member, all signed in; what the load's members already like and
 * bookmark; and the instance's rows before the run.
 */
async function prepareMembers(copy: RunCopy, prng: Prng) {
  const runner = await copy.runner();
  try {
    const before = await countRows(runner);
    const allMembers = await runner.all<{ id: string; username: string }>(
      'SELECT id, username FROM users ORDER BY id',
    );
    const postIds = (await runner.all<{ id: string }>('SELECT id FROM posts ORDER BY id')).map(
      (row) => row.id,
    );
    const [mostFollowed] = await runner.all<{ id: string }>(
      'SELECT id FROM users ORDER BY followers_count DESC, id LIMIT 1',
    );
    const celebrityIndex = allMembers.findIndex((member) => member.id === mostFollowed?.id);
    const secret = readFileSync(secretFileOf({ dataDir: copy.dataDir }), 'utf8').trim();
    const memberCount = Math.min(parseCount(args.members), allMembers.length);
    const chosen = new Set<number>();
    while (chosen.size < memberCount) chosen.add(prng.int(allMembers.length));
    const toSign = checksTimelines
      ? allMembers.map((_, index) => index)
      : [...new Set([...chosen, celebrityIndex])].filter((index) => index >= 0);
    const signed = new Map(
      (
        await signIn(
          copy,
          secret,
          toSign.map((index) => ({ index, ...(allMembers[index] ?? { id: '', username: '' }) })),
        )
      ).map((member) => [member.index, member]),
    );
    const members = [...chosen].map((index) => signed.get(index)).filter((m) => m !== undefined);
    const celebrity = signed.get(celebrityIndex);
    if (members.length === 0 || !celebrity) throw new Error('the instance has no members');

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
    return {
      before,
      secret,
      allMembers,
      postIds,
      members,
      celebrity,
      everyone: checksTimelines ? [...signed.values()] : [],
      liked,
      bookmarked,
    };
  } finally {
    await runner.close();
  }
}

// ---- runs ---------------------------------------------------------------------------------------

/** Throughput with 50 connections, then latency with 10 (after a warm-up on full runs). */
async function runScenario(
  server: RunningServer,
  scenario: Scenario,
  healthPath: string,
  baselineRps: number,
  writes: WriteLog,
): Promise<ScenarioResult> {
  writes.current = scenario.name;
  if (warmupSeconds > 0) {
    await fireFor(server.url, scenario.requests(), LATENCY_CONNECTIONS, warmupSeconds);
    await settle(server.url, healthPath);
  }
  const cpuBefore = cpuSecondsOf(server.pid);
  const throughput = figures(
    await fireFor(server.url, scenario.requests(), THROUGHPUT_CONNECTIONS, throughputSeconds),
  );
  const cpuAfter = cpuSecondsOf(server.pid);
  await settle(server.url, healthPath);
  const latency = figures(
    await fireFor(server.url, scenario.requests(), LATENCY_CONNECTIONS, latencySeconds),
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
    cpuUsPerRequest:
      cpuBefore === null || cpuAfter === null || throughput.requests === 0
        ? null
        : Math.round(((cpuAfter - cpuBefore) / throughput.requests) * 1e6),
    sampleFailure: writes.failures.get(scenario.name) ?? null,
  };
  log(
    `  ${scenario.name.padEnd(20)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${String(result.p50).padStart(5)} ms  p99 ${String(result.p99).padStart(6)} ms  CPU ${String(result.cpuUsPerRequest ?? '-').padStart(5)} µs/req  ${kb(result.throughput.bytesPerAnswer).padStart(5)} kB/answer  errors ${result.errors}  non-2xx ${result.non2xx}${result.sampleFailure ? `  (first failure: ${result.sampleFailure})` : ''}`,
  );
  return result;
}

type Load = ReturnType<typeof createLoad>;

/** The live-events set (bench/events.ts): streams for the members, then this run's scenarios. */
function runEvents(perch: RunningServer, baselineRps: number, load: Load, members: Member[]) {
  log();
  log('Live events (GET /api/events):');
  const named = (name: string) => {
    const scenario = load.scenarios.find((s) => s.name === name);
    if (!scenario) throw new Error(`no scenario ${name}`);
    return scenario;
  };
  const both = (counts: Record<string, number>) =>
    (counts['like:on'] ?? 0) + (counts['like:off'] ?? 0);
  return measureEvents({
    url: perch.url,
    members,
    streams: 200,
    nextLike: load.nextLike,
    recordWrite: load.recordWrite,
    likeWrites: () => ({ answered: both(load.writes.succeeded), sent: both(load.writes.sent) }),
    warmUp: async (names) => {
      const requests = names.flatMap((name) => named(name).requests());
      await fireFor(perch.url, requests, LATENCY_CONNECTIONS, 3);
      await settle(perch.url, '/api/health');
    },
    run: (name, label) =>
      runScenario(
        perch,
        { ...named(name), name: name + label },
        '/api/health',
        baselineRps,
        load.writes,
      ),
    likes: 200,
    intervalMs: 20,
    timeoutMs: timeoutSeconds * 1000,
    log,
  });
}

async function runBaseline(load: Load): Promise<ScenarioResult> {
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
    return await runScenario(
      bare,
      {
        name: 'baseline',
        what: 'bare Fastify GET /api/bench',
        write: false,
        requests: () => [load.get('baseline', () => '/api/bench')],
      },
      '/api/bench',
      0,
      load.writes,
    );
  } finally {
    await bare.stop();
  }
}

/** Every member's Home against the pull query, with the server still running. */
async function runTimelineCheck(
  perch: RunningServer,
  copy: RunCopy,
  everyone: Member[],
): Promise<TimelineResult> {
  log();
  log(
    `Home timelines against the pull query (${formatCount(everyone.length)} members, ${TIMELINE_CHECK.concurrency} requests in flight):`,
  );
  const runner = await copy.runner();
  try {
    const result = await checkTimelines({
      url: perch.url,
      runner,
      members: everyone,
      ...TIMELINE_CHECK,
      requestTimeoutMs: timeoutSeconds * 1000,
    });
    for (const line of timelineReport(result)) log(`  ${line}`);
    return result;
  } finally {
    await runner.close();
  }
}

interface PerchFigures {
  results: ScenarioResult[];
  server: { peakRssMB: number; maxSampledRssMB: number; startupSeconds: number };
  web: WebResult | null;
  events: EventsResult | null;
  soak: SoakResult | null;
  timelines: TimelineResult | null;
}

/** Perch itself: the scenarios (or the soak), live events, the web app, then the Home check. */
async function runPerch(
  env: NodeJS.ProcessEnv,
  copy: RunCopy,
  prepared: Awaited<ReturnType<typeof prepareMembers>>,
  load: Load,
  selected: Scenario[],
  baselineRps: number,
): Promise<PerchFigures> {
  const { members, everyone } = prepared;
  const nodeFlags = serverNodeFlags(ROOT);
  log();
  log(`Perch (node ${[...nodeFlags, 'apps/server/dist/server.js'].join(' ')}):`);
  const port = await freePort();
  const step = performance.now();
  const perch = await startServer({
    name: 'Perch server',
    command: process.execPath,
    // --profile DIR: the server writes a V8 CPU profile there when it stops (NODE_OPTIONS may not
    // carry --cpu-prof).
    args: [
      ...nodeFlags,
      ...(args.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(args.profile)}`] : []),
      path.join(ROOT, 'apps/server/dist/server.js'),
    ],
    env: { ...env, PORT: String(port) },
    port,
    healthPath: '/api/health',
    cwd: ROOT,
  });
  const startupSeconds = Number(seconds(step));
  const figuresOf: Omit<PerchFigures, 'server'> = {
    results: [],
    web: null,
    events: null,
    soak: null,
    timelines: null,
  };
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

    // Writes too: a new post is written to its author's followers' timelines, so a run of writes
    // alone without them measured posting as free of fan-out (create-post 262 µs a post, against
    // 349-372 in full runs).
    if (selected.length > 0) {
      const ready = await warmTimelines(perch.url, members, copy.runner);
      log(
        `  home timelines of the ${formatCount(members.length)} members: ${formatCount(ready.built)} built in ${ready.seconds.toFixed(1)} s`,
      );
    }

    // Warm the JIT and caches with a little of every read first, and with a little of every write
    // before the first write scenario: that one otherwise measured the write paths cold (like
    // 546–657 CPU µs in full runs, 446–570 run again later in the same process).
    const warmUp = async (writes: boolean) => {
      const requests = selected.filter((s) => s.write === writes).flatMap((s) => s.requests());
      if (requests.length === 0) return;
      if (writes) load.writes.current = 'warm-up';
      await fireFor(perch.url, requests, LATENCY_CONNECTIONS, quick ? 1 : 3);
      await settle(perch.url, '/api/health');
    };
    await warmUp(false);
    if (soakSeconds > 0) {
      log();
      log(
        `Soak: every selected scenario mixed, ${LATENCY_CONNECTIONS} connections, ${soakSeconds} s:`,
      );
      load.writes.current = 'soak';
      const mixed = selected.flatMap((s) => s.requests());
      figuresOf.soak = await runSoak({
        seconds: soakSeconds,
        sliceSeconds: 30,
        fire: async (length) =>
          figures(await fireFor(perch.url, mixed, LATENCY_CONNECTIONS, length)),
        rssMB: () => {
          const memory = memoryOf(perch.pid);
          return memory ? mb(memory.rss) : null;
        },
        serverErrors: () => load.writes.serverErrors,
        log,
      });
      log(soakSummary(figuresOf.soak));
    } else {
      const firstWrite = selected.find((s) => s.write);
      for (const scenario of selected) {
        if (scenario === firstWrite) await warmUp(true);
        figuresOf.results.push(
          await runScenario(perch, scenario, '/api/health', baselineRps, load.writes),
        );
      }
    }
    if (wanted('events')) figuresOf.events = await runEvents(perch, baselineRps, load, members);

    if (wanted('web')) {
      log();
      log('Web app:');
      figuresOf.web = await measureWeb({
        baseURL: perch.url,
        session,
        runs: quick ? 3 : 5,
        timeoutMs: quick ? 4000 : 10_000,
      });
      if (figuresOf.web.skipped) log(`  skipped: ${figuresOf.web.skipped}`);
    }
    // The server's memory as the runs left it, before the Home check's own requests.
    const memory = memoryOf(perch.pid);
    const server = {
      peakRssMB: memory ? mb(memory.peak) : 0,
      maxSampledRssMB: mb(perch.maxSampledRss()),
      startupSeconds,
    };
    if (checksTimelines) figuresOf.timelines = await runTimelineCheck(perch, copy, everyone);
    return { ...figuresOf, server };
  } catch (error) {
    log(perch.logs());
    throw error;
  } finally {
    await perch.stop();
  }
}

/** The read scenarios of this run, run again on the small instance (see bench/growth.ts). */
function runGrowth(selected: Scenario[], results: ScenarioResult[]): Promise<GrowthResult | null> {
  const readNames = new Set(selected.filter((s) => !s.write).map((s) => s.name));
  const reads = results.filter((result) => readNames.has(result.name));
  if (reads.length === 0) return Promise.resolve(null);
  const passOn = [
    ...['seed', 'members', 'duration', 'latency-duration'].flatMap((name) => {
      const value = args[name as keyof typeof args];
      return typeof value === 'string' ? [`--${name}`, value] : [];
    }),
    ...(usePostgres ? ['--pg'] : []),
  ];
  return measureGrowth({ reads, largePosts: posts, passOn, log });
}

// ---- main ---------------------------------------------------------------------------------------

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
  if (!args['no-build']) ensureBuilds({ web: wanted('web'), log });
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
  const prepared = await prepareMembers(copy, prng);
  const load = createLoad({
    prng,
    members: prepared.members,
    celebrity: prepared.celebrity,
    usernames: prepared.allMembers.map((member) => member.username),
    postIds: prepared.postIds,
    liked: prepared.liked,
    bookmarked: prepared.bookmarked,
  });
  const selected = load.scenarios.filter((scenario) => wanted(scenario.name));
  const known = new Set([
    ...load.scenarios.map((scenario) => scenario.name),
    'inprocess',
    'web',
    'events',
    'timelines',
  ]);
  const unknown = [...(only ?? [])].filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new Error(`unknown --only name ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  }

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

  const baseline = selected.length > 0 ? await runBaseline(load) : null;
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SEED: 'none',
    AUTH_RATE_LIMIT: '0',
    DATA_DIR: copy.dataDir,
    DATABASE_URL: copy.databaseUrl ?? '',
    JWT_SECRET: prepared.secret,
  };
  const perch =
    checksTimelines || wanted('web')
      ? await runPerch(env, copy, prepared, load, selected, baseline?.rps ?? 0)
      : null;

  // ---- nothing lost ----
  const verification = await verifyWrites(copy.runner, prepared.before, load.writes, log);
  const growth = measuresGrowth ? await runGrowth(selected, perch?.results ?? []) : null;

  const run = {
    settings: {
      posts,
      seed: args.seed,
      quick,
      connections: { throughput: THROUGHPUT_CONNECTIONS, latency: LATENCY_CONNECTIONS },
      durations: { throughput: throughputSeconds, latency: latencySeconds },
    },
    variant,
    members: meta?.members ?? prepared.allMembers.length,
    meta,
    started,
    results: perch?.results ?? [],
    baseline,
    server: perch?.server ?? null,
    inProcess,
    web: perch?.web ?? null,
    events: perch?.events ?? null,
    soak: perch?.soak ?? null,
    timelines: perch?.timelines ?? null,
    verification,
    growth,
  };
  printReport(run, log);
  if (failed(run)) process.exitCode = 1;
}

main()
  // Done: a handle left open (a keep-alive socket, a database connection) must not keep the run
  // waiting after its report (it did, now and then).
  .then(() => process.exit())
  .catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
