/** One scenario's throughput and latency runs against a running server, and the baseline's. */
import path from 'node:path';
import { ROOT } from '../lib/instance';
import {
  figures,
  fire,
  kb,
  mb,
  type Request,
  type Scenario,
  type ScenarioResult,
} from '../lib/load';
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

/** Throughput with 50 connections, then latency with 10 (after a warm-up on full runs). */
export async function runScenario(
  options: RunOptions,
  server: RunningServer,
  scenario: Scenario,
  healthPath: string,
  baselineRps: number,
  writes: WriteLog,
): Promise<ScenarioResult> {
  writes.current = scenario.name;
  const run = (connections: number, seconds: number) =>
    fireFor(options, server.url, scenario.requests(), connections, seconds);
  if (options.warmupSeconds > 0) {
    await run(LATENCY_CONNECTIONS, options.warmupSeconds);
    await settle(server.url, healthPath);
  }
  const cpuBefore = cpuSecondsOf(server.pid);
  const throughput = figures(await run(THROUGHPUT_CONNECTIONS, options.throughputSeconds));
  const cpuAfter = cpuSecondsOf(server.pid);
  await settle(server.url, healthPath);
  const waitedBefore = runQueueWaitSecondsOf(server.pid);
  const latencyStarted = performance.now();
  const latency = figures(await run(LATENCY_CONNECTIONS, options.latencySeconds));
  const waited = waitPerSecond(
    waitedBefore,
    runQueueWaitSecondsOf(server.pid),
    (performance.now() - latencyStarted) / 1000,
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
    waitMsPerSecond: waited,
    sampleFailure: writes.failures.get(scenario.name) ?? null,
  };
  log(
    `  ${scenario.name.padEnd(20)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${String(result.p50).padStart(5)} ms  p99 ${String(result.p99).padStart(6)} ms  CPU ${String(result.cpuUsPerRequest ?? '-').padStart(5)} µs/req  ${kb(result.throughput.bytesPerAnswer).padStart(5)} kB/answer  waited ${String(result.waitMsPerSecond ?? '-').padStart(3)} ms/s  errors ${result.errors}  non-2xx ${result.non2xx}${result.sampleFailure ? `  (first failure: ${result.sampleFailure})` : ''}`,
  );
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
