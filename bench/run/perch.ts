/**
 * Perch itself: the server started on the working copy, the scenarios (or the soak), the live
 * events, the web app, then every member's Home against the pull query.
 */
import path from 'node:path';
import { measureEvents, type EventsResult } from '../events';
import type { Member, RunCopy } from '../lib/copy';
import { formatCount, ROOT } from '../lib/instance';
import { figures, mb, type Scenario, type ScenarioResult } from '../lib/load';
import { log, secondsSince } from '../lib/log';
import {
  freePort,
  memoryOf,
  serverNodeFlags,
  settle,
  startServer,
  type RunningServer,
} from '../lib/proc';
import { warmTimelines } from '../lib/timelines-ready';
import { auth } from '../scenarios';
import { runSoak, soakSummary, type SoakResult } from '../soak';
import { checkTimelines, timelineReport, type TimelineResult } from '../timeline-check';
import { measureWeb, type WebResult } from '../web';
import type { PreparedMembers } from './members';
import { LATENCY_CONNECTIONS, type RunOptions } from './options';
import { fireFor, runScenario, type Load } from './scenario';

/** The Home check: requests in flight, every n-th member's second page, retry window. */
const TIMELINE_CHECK = { concurrency: 16, secondPageEvery: 10, settleMs: 10_000 };

export interface PerchFigures {
  results: ScenarioResult[];
  server: { peakRssMB: number; maxSampledRssMB: number; startupSeconds: number };
  web: WebResult | null;
  events: EventsResult | null;
  soak: SoakResult | null;
  timelines: TimelineResult | null;
}

/** What a stage of the Perch run works with. */
interface Stage {
  options: RunOptions;
  perch: RunningServer;
  load: Load;
  baselineRps: number;
}

export async function runPerch(
  options: RunOptions,
  env: NodeJS.ProcessEnv,
  copy: RunCopy,
  prepared: PreparedMembers,
  load: Load,
  selected: Scenario[],
  baselineRps: number,
): Promise<PerchFigures> {
  const { members, everyone } = prepared;
  const started = performance.now();
  const perch = await startPerch(options, env);
  const startupSeconds = Number(secondsSince(started));
  const stage: Stage = { options, perch, load, baselineRps };
  try {
    const session = await sessionOf(perch, members[0]);
    // Writes too: a new post is written to its author's followers' timelines, so a run of writes
    // alone without them measured posting as free of fan-out (create-post 262 µs a post, against
    // 349-372 in full runs).
    if (selected.length > 0) {
      const ready = await warmTimelines(perch.url, members, copy.runner);
      log(
        `  home timelines of the ${formatCount(members.length)} members: ${formatCount(ready.built)} built in ${ready.seconds.toFixed(1)} s`,
      );
    }
    await warmUp(stage, selected, false);
    const soak = options.soakSeconds > 0 ? await runSoakOf(stage, selected) : null;
    const results = options.soakSeconds > 0 ? [] : await runEach(stage, selected);
    const events = options.wanted('events') ? await runEvents(stage, members) : null;
    let web: WebResult | null = null;
    if (options.wanted('web')) {
      log();
      log('Web app:');
      web = await measureWeb({
        baseURL: perch.url,
        session,
        runs: options.quick ? 3 : 5,
        timeoutMs: options.quick ? 4000 : 10_000,
        lighthouseRuns: options.quick ? 1 : 3,
      });
      if (web.skipped) log(`  skipped: ${web.skipped}`);
    }
    // The server's memory as the runs left it, before the Home check's own requests.
    const memory = memoryOf(perch.pid);
    const server = {
      peakRssMB: memory ? mb(memory.peak) : 0,
      maxSampledRssMB: mb(perch.maxSampledRss()),
      startupSeconds,
    };
    const timelines = options.checksTimelines
      ? await runTimelineCheck(options, perch, copy, everyone)
      : null;
    return { results, server, web, events, soak, timelines };
  } catch (error) {
    log(perch.logs());
    throw error;
  } finally {
    await perch.stop();
  }
}

/** Where a server's bundle is and the directory it runs in. */
export interface ServerBuild {
  serverJs: string;
  cwd: string;
}

export const CURRENT_BUILD: ServerBuild = {
  serverJs: path.join(ROOT, 'apps/server/dist/server.js'),
  cwd: ROOT,
};

/** The production server (`build`, this checkout's by default) on `env`'s working copy. */
export async function startPerch(
  options: Pick<RunOptions, 'profileDir'>,
  env: NodeJS.ProcessEnv,
  label = 'Perch',
  build: ServerBuild = CURRENT_BUILD,
): Promise<RunningServer> {
  const nodeFlags = serverNodeFlags(ROOT);
  log();
  log(`${label} (node ${[...nodeFlags, path.relative(ROOT, build.serverJs)].join(' ')}):`);
  const port = await freePort();
  return startServer({
    name: `${label} server`,
    command: process.execPath,
    // --profile DIR: the server writes a V8 CPU profile there when it stops (NODE_OPTIONS may
    // not carry --cpu-prof).
    args: [
      ...nodeFlags,
      ...(options.profileDir
        ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(options.profileDir)}`]
        : []),
      build.serverJs,
    ],
    env: { ...env, PORT: String(port) },
    port,
    healthPath: '/api/health',
    cwd: build.cwd,
  });
}

/** The web app's session: a load member's token, checked, and their member as the server has it. */
async function sessionOf(perch: RunningServer, probe: Member | undefined) {
  const me = probe ? await fetch(`${perch.url}/api/auth/me`, { headers: auth(probe) }) : null;
  if (!me?.ok) {
    throw new Error(
      `a bench member's token was refused: ${String(me?.status)} ${await me?.text()}`,
    );
  }
  return { token: probe?.token ?? '', user: ((await me.json()) as { user: unknown }).user };
}

/**
 * Warms the JIT and caches with a little of every read first, and with a little of every write
 * before the first write scenario: that one otherwise measured the write paths cold (like
 * 546–657 CPU µs in full runs, 446–570 run again later in the same process).
 */
export async function warmUp(
  { options, perch, load }: Pick<Stage, 'options' | 'perch' | 'load'>,
  selected: Scenario[],
  writes: boolean,
) {
  const requests = selected.filter((s) => s.write === writes).flatMap((s) => s.requests());
  if (requests.length === 0) return;
  if (writes) load.writes.current = 'warm-up';
  await fireFor(options, perch.url, requests, LATENCY_CONNECTIONS, options.quick ? 1 : 3);
  await settle(perch.url, '/api/health');
}

async function runEach(stage: Stage, selected: Scenario[]): Promise<ScenarioResult[]> {
  const { options, perch, load, baselineRps } = stage;
  const results: ScenarioResult[] = [];
  const firstWrite = selected.find((s) => s.write);
  for (const scenario of selected) {
    if (scenario === firstWrite) await warmUp(stage, selected, true);
    results.push(
      await runScenario(options, perch, scenario, '/api/health', baselineRps, load.writes),
    );
  }
  return results;
}

async function runSoakOf(
  { options, perch, load }: Stage,
  selected: Scenario[],
): Promise<SoakResult> {
  log();
  log(
    `Soak: every selected scenario mixed, ${LATENCY_CONNECTIONS} connections, ${options.soakSeconds} s:`,
  );
  load.writes.current = 'soak';
  const mixed = selected.flatMap((s) => s.requests());
  const soak = await runSoak({
    seconds: options.soakSeconds,
    sliceSeconds: 30,
    fire: async (length) =>
      figures(await fireFor(options, perch.url, mixed, LATENCY_CONNECTIONS, length)),
    rssMB: () => {
      const memory = memoryOf(perch.pid);
      return memory ? mb(memory.rss) : null;
    },
    serverErrors: () => load.writes.serverErrors,
    log,
  });
  log(soakSummary(soak));
  return soak;
}

/** The live-events set (bench/events.ts): streams for the members, then this run's scenarios. */
function runEvents({ options, perch, load, baselineRps }: Stage, members: Member[]) {
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
    levels: options.streamLevels,
    nextLike: load.nextLike,
    recordWrite: load.recordWrite,
    likeWrites: () => ({ answered: both(load.writes.succeeded), sent: both(load.writes.sent) }),
    warmUp: async (names) => {
      const requests = names.flatMap((name) => named(name).requests());
      await fireFor(options, perch.url, requests, LATENCY_CONNECTIONS, 3);
      await settle(perch.url, '/api/health');
    },
    run: (name, label) =>
      runScenario(
        options,
        perch,
        { ...named(name), name: name + label },
        '/api/health',
        baselineRps,
        load.writes,
      ),
    likes: 200,
    intervalMs: 20,
    timeoutMs: options.timeoutSeconds * 1000,
    log,
  });
}

/** Every member's Home against the pull query, with the server still running. */
async function runTimelineCheck(
  options: RunOptions,
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
      requestTimeoutMs: options.timeoutSeconds * 1000,
    });
    for (const line of timelineReport(result)) log(`  ${line}`);
    return result;
  } finally {
    await runner.close();
  }
}
