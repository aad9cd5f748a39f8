/**
 * One scenario's rounds against a running server (saturated throughput, then latency at half that
 * rate), and the baseline's.
 */
import path from 'node:path';
import { ROOT } from '../lib/instance';
import {
  figures,
  fire,
  formatSpread,
  kb,
  mb,
  spreadOf,
  type Request,
  type Scenario,
  type ScenarioResult,
  type ScenarioRound,
} from '../lib/load';
import { firePaced } from '../lib/paced';
import { log } from '../lib/log';
import {
  cpuSecondsOf,
  freePort,
  memoryOf,
  runQueueWaitSecondsOf,
  settle,
  waitPerSecond,
  startServer,
  type RunningServer,
} from '../lib/proc';
import type { createLoad, WriteLog } from '../scenarios';
import { LATENCY_CONNECTIONS, THROUGHPUT_CONNECTIONS, type RunOptions } from './options';

export type Load = ReturnType<typeof createLoad>;

/** autocannon with the run's timeout. */
export const fireFor = (
  options: RunOptions,
  url: string,
  requests: Request[],
  connections: number,
  duration: number,
) => fire(url, requests, connections, duration, options.timeoutSeconds);

/**
 * One round: saturated throughput with 50 connections, then latency at half the rate that round
 * reached, sent at a constant rate and measured from each request's intended time (lib/paced.ts).
 */
export async function runRound(
  options: RunOptions,
  server: RunningServer,
  scenario: Scenario,
  healthPath: string,
): Promise<ScenarioRound> {
  const cpuBefore = cpuSecondsOf(server.pid);
  const throughput = figures(
    await fireFor(
      options,
      server.url,
      scenario.requests(),
      THROUGHPUT_CONNECTIONS,
      options.throughputSeconds,
    ),
  );
  const cpuAfter = cpuSecondsOf(server.pid);
  await settle(server.url, healthPath);
  const waitedBefore = runQueueWaitSecondsOf(server.pid);
  const pacedStarted = performance.now();
  const paced = await firePaced({
    url: server.url,
    requests: scenario.requests(),
    rate: Math.max(1, throughput.rps / 2),
    seconds: options.latencySeconds,
    connections: THROUGHPUT_CONNECTIONS,
    timeoutSeconds: options.timeoutSeconds,
  });
  const waitMsPerSecond = waitPerSecond(
    waitedBefore,
    runQueueWaitSecondsOf(server.pid),
    (performance.now() - pacedStarted) / 1000,
  );
  await settle(server.url, healthPath);
  const cpuUsPerRequest =
    cpuBefore === null || cpuAfter === null || throughput.requests === 0
      ? null
      : Math.round(((cpuAfter - cpuBefore) / throughput.requests) * 1e6);
  return { throughput, paced, cpuUsPerRequest, waitMsPerSecond };
}

/** A scenario's figures from its rounds: medians, with each one's spread. */
export function resultOf(
  scenario: Pick<Scenario, 'name' | 'what'>,
  rounds: ScenarioRound[],
  baselineRps: number,
  extra: { rssMB: number | null; sampleFailure: string | null },
): ScenarioResult {
  const rps = spreadOf(rounds.map((r) => r.throughput.rps));
  const cpu = rounds.map((r) => r.cpuUsPerRequest).filter((value) => value !== null);
  const waits = rounds.map((r) => r.waitMsPerSecond).filter((value) => value !== null);
  const byRps = [...rounds].sort((a, b) => a.throughput.rps - b.throughput.rps);
  const middle = byRps[Math.floor((byRps.length - 1) / 2)];
  if (!middle) throw new Error(`${scenario.name}: no round ran`);
  const spread = {
    rps,
    p50: spreadOf(rounds.map((r) => r.paced.p50)),
    p99: spreadOf(rounds.map((r) => r.paced.p99)),
    p999: spreadOf(rounds.map((r) => r.paced.p999)),
    cpuUsPerRequest: cpu.length === 0 ? null : spreadOf(cpu),
  };
  const sum = (of: (r: ScenarioRound) => number) => rounds.reduce((total, r) => total + of(r), 0);
  return {
    name: scenario.name,
    what: scenario.what,
    rps: rps.median,
    ratio: baselineRps > 0 ? Math.round((rps.median / baselineRps) * 1000) / 1000 : 1,
    p50: spread.p50.median,
    p99: spread.p99.median,
    p999: spread.p999.median,
    errors: sum((r) => r.throughput.errors + r.paced.errors),
    non2xx: sum((r) => r.throughput.non2xx + r.paced.non2xx),
    throughput: middle.throughput,
    rounds,
    spread,
    rssMB: extra.rssMB,
    cpuUsPerRequest: spread.cpuUsPerRequest?.median ?? null,
    waitMsPerSecond: waits.length === 0 ? null : Math.round(spreadOf(waits).median),
    sampleFailure: extra.sampleFailure,
  };
}

/** The line printed as a scenario ends. */
export function scenarioLine(result: ScenarioResult): string {
  const { spread } = result;
  return `  ${result.name.padEnd(20)} req/s ${formatSpread(spread.rps).padStart(20)}  p50 ${formatSpread(spread.p50, 2)}  p99 ${formatSpread(spread.p99, 2)}  p99.9 ${formatSpread(spread.p999, 2)} ms  CPU ${formatSpread(spread.cpuUsPerRequest)} µs/req  ${kb(result.throughput.bytesPerAnswer)} kB/answer  waited ${String(result.waitMsPerSecond ?? '-')} ms/s  errors ${result.errors}  non-2xx ${result.non2xx}${result.sampleFailure ? `  (first failure: ${result.sampleFailure})` : ''}`;
}

/** A warm-up at the latency connections before a scenario is measured (full runs only). */
export async function warmScenario(
  options: RunOptions,
  server: RunningServer,
  scenario: Scenario,
  healthPath: string,
) {
  if (options.warmupSeconds <= 0) return;
  await fireFor(
    options,
    server.url,
    scenario.requests(),
    LATENCY_CONNECTIONS,
    options.warmupSeconds,
  );
  await settle(server.url, healthPath);
}

/** `options.rounds` rounds of a scenario on one server (after a warm-up on full runs). */
export async function runScenario(
  options: RunOptions,
  server: RunningServer,
  scenario: Scenario,
  healthPath: string,
  baselineRps: number,
  writes: WriteLog,
): Promise<ScenarioResult> {
  writes.current = scenario.name;
  await warmScenario(options, server, scenario, healthPath);
  const rounds: ScenarioRound[] = [];
  for (let round = 0; round < options.rounds; round++) {
    rounds.push(await runRound(options, server, scenario, healthPath));
  }
  const memory = memoryOf(server.pid);
  const result = resultOf(scenario, rounds, baselineRps, {
    rssMB: memory ? mb(memory.rss) : null,
    sampleFailure: writes.failures.get(scenario.name) ?? null,
  });
  log(scenarioLine(result));
  return result;
}

/** A bare Fastify server with one small route, run as a scenario: what every ratio divides by. */
export async function runBaseline(options: RunOptions, load: Load): Promise<ScenarioResult> {
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
      options,
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
