/** The run's table and figures, kept in bench-data/results and printed as one BENCH_JSON line. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eventsReport, type EventsResult } from './events';
import { growthReport, type GrowthResult } from './growth';
import type { InProcessResult } from './inprocess';
import { pinning } from './lib/pinning';
import { formatCount, ROOT, type InstanceMeta } from './lib/instance';
import { formatSpread, kb, spreadOf, type ScenarioResult } from './lib/load';
import { formatTable } from './lib/table';
import type { SoakResult } from './soak';
import { timelineReport, type TimelineResult } from './timeline-check';
import type { Verification } from './verify';
import { lighthouseLines } from './lighthouse';
import type { WebResult } from './web';

/** How the run was made: the options the figures depend on. */
export interface RunSettings {
  posts: number;
  seed: string;
  quick: boolean;
  connections: { throughput: number; latency: number };
  rounds: number;
  durations: { throughput: number; latency: number };
}

export interface RunReport {
  settings: RunSettings;
  variant: string;
  members: number;
  meta: InstanceMeta | null;
  started: number;
  results: ScenarioResult[];
  baseline: ScenarioResult | null;
  server: { peakRssMB: number; maxSampledRssMB: number; startupSeconds: number } | null;
  inProcess: InProcessResult | null;
  web: WebResult | null;
  events: EventsResult | null;
  soak: SoakResult | null;
  timelines: TimelineResult | null;
  verification: Verification;
  /** The reads' growth against a small instance beside it, when measured (bench/growth.ts). */
  growth: GrowthResult | null;
}

/**
 * The run failed when a write was lost, a member's Home differs from the pull query, or growth
 * could not be measured (a server that did not start, a read answered with errors).
 */
export const failed = (run: Pick<RunReport, 'verification' | 'timelines' | 'growth'>) =>
  run.verification.lost ||
  (run.timelines?.differ ?? 0) > 0 ||
  (run.growth !== null && run.growth.error !== null);

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

/** How late the generator itself sent in the paced runs, p99 ms, median round. */
const sendLag = (r: ScenarioResult) =>
  spreadOf(r.rounds.map((round) => round.paced.sendLagP99)).median;

/** One row a scenario: every figure as min / median / max over its rounds. */
function scenarioTable(results: ScenarioResult[], baseline: ScenarioResult | null): string[] {
  const table: string[][] = [
    [
      'scenario',
      'req/s',
      '× base',
      'p50 ms',
      'p99 ms',
      'p99.9 ms',
      'CPU µs/req',
      'kB/answer',
      'wait ms/s',
      'lag ms',
      'errors',
      'non-2xx',
    ],
  ];
  for (const r of baseline ? [baseline, ...results] : results) {
    table.push([
      r.name,
      formatSpread(r.spread.rps),
      r.ratio.toFixed(3),
      formatSpread(r.spread.p50, 2),
      formatSpread(r.spread.p99, 2),
      formatSpread(r.spread.p999, 2),
      formatSpread(r.spread.cpuUsPerRequest),
      kb(r.throughput.bytesPerAnswer),
      r.waitMsPerSecond === null ? '-' : String(r.waitMsPerSecond),
      sendLag(r).toFixed(1),
      String(r.errors),
      String(r.non2xx),
    ]);
  }
  return table.length > 1 ? formatTable(table) : [];
}

/** Whether the load generator had a core of its own. */
export function machineNote(): string[] {
  return [pinning().note];
}

/** How to read the table, and what the figures were measured with. */
export function tableHeading(settings: RunSettings): string[] {
  return [
    `Each figure is min / median / max of ${settings.rounds} rounds; a round is ${settings.durations.throughput} s of throughput with ${settings.connections.throughput} connections (req/s, CPU µs/req, kB/answer), then ${settings.durations.latency} s at half the req/s that round reached, sent at a constant rate, latency from each request's intended send time (p50, p99, p99.9: queueing behind a stall counts). lag ms: how late the generator itself sent (p99); when it nears the latencies, the machine, not the server, set them.`,
    ...machineNote(),
  ];
}

function webLines(web: WebResult): string[] {
  const lines: string[] = [];
  if (web.initialJs) {
    const files = web.initialJs.files.length;
    lines.push(
      `Web: initial JS ${kb(web.initialJs.brBytes)} kB brotli, ${kb(web.initialJs.gzipBytes)} kB gzip (${kb(web.initialJs.bytes)} kB raw, ${files} file${files === 1 ? '' : 's'})`,
    );
  }
  if (!web.skipped) {
    lines.push(
      `Web: first post on the home feed ${web.firstPostMs === null ? 'n/a' : `${web.firstPostMs} ms`} (median of ${web.runs} cold loads); home heading ${web.shellMs ?? 'n/a'} ms`,
    );
  }
  if (web.note) lines.push(`Web: ${web.note}`);
  if (web.lighthouse) {
    lines.push(
      'Web: Lighthouse 13, mobile preset (simulated slow 4G, 4× CPU slowdown), median run:',
    );
    lines.push(...lighthouseLines(web.lighthouse));
  }
  return lines;
}

function verdict(run: RunReport): string {
  const { lost } = run.verification;
  const differ = run.timelines?.differ ?? 0;
  const writes = lost ? 'SOMETHING WAS LOST (see above)' : 'nothing lost';
  const homes =
    run.timelines === null
      ? ''
      : differ > 0
        ? `; HOME DIFFERS from the pull query for ${formatCount(differ)} member${differ === 1 ? '' : 's'}`
        : '; every Home equals the pull query';
  return `Writes: ${writes}${homes}. Total time ${seconds(run.started)} s.`;
}

function printSummary(run: RunReport, log: (line?: string) => void): void {
  const { settings, results, baseline, server, inProcess, web, events, timelines } = run;
  log();
  log(
    `Results: ${run.variant}, ${formatCount(settings.posts)} posts, ${formatCount(run.members)} members, ${process.env.WORKERS ?? '1'} server process(es)`,
  );
  for (const line of tableHeading(settings)) log(line);
  for (const line of scenarioTable(results, baseline)) log(line);
  if (run.growth) for (const line of growthReport(run.growth)) log(line);
  if (server) {
    log(
      `Server peak RSS (VmHWM): ${server.peakRssMB} MB; highest sampled VmRSS: ${server.maxSampledRssMB} MB; started in ${server.startupSeconds} s`,
    );
  }
  const home = inProcess?.timings.find((t) => t.name === 'home feed, latest');
  if (home) {
    log(
      `In-process home feed (latest, 20 posts), ${home.samples} members: p50 ${home.p50} ms, p99 ${home.p99} ms`,
    );
  }
  if (web) for (const line of webLines(web)) log(line);
  if (events) log(['', ...eventsReport(events), ''].join('\n'));
  if (timelines) for (const line of timelineReport(timelines)) log(line);
  log(verdict(run));
}

/** Prints the run's table and figures, keeps them in bench-data/results, and prints BENCH_JSON. */
export function printReport(run: RunReport, log: (line?: string) => void): void {
  const { settings, variant, meta, results, baseline, server, inProcess, web } = run;
  const { lost, expectations, mismatches, createdPosts } = run.verification;
  printSummary(run, log);

  const report = {
    variant,
    posts: settings.posts,
    members: run.members,
    seed: settings.seed,
    quick: settings.quick,
    connections: settings.connections,
    rounds: settings.rounds,
    durations: settings.durations,
    baseline: baseline && {
      rps: baseline.rps,
      p50: baseline.p50,
      p99: baseline.p99,
      p999: baseline.p999,
      spread: baseline.spread,
      errors: baseline.errors,
      non2xx: baseline.non2xx,
    },
    scenarios: results.map((r) => ({
      name: r.name,
      rps: r.rps,
      ratio: r.ratio,
      p50: r.p50,
      p99: r.p99,
      p999: r.p999,
      spread: r.spread,
      errors: r.errors,
      non2xx: r.non2xx,
      p50At50: r.throughput.p50,
      p99At50: r.throughput.p99,
      rssMB: r.rssMB,
      cpuUsPerRequest: r.cpuUsPerRequest,
      waitMsPerSecond: r.waitMsPerSecond,
      bytesPerAnswer: r.throughput.bytesPerAnswer,
    })),
    server,
    inProcess: inProcess?.timings ?? null,
    web: web && {
      skipped: web.skipped,
      initialJsBytes: web.initialJs?.bytes ?? null,
      initialJsGzipBytes: web.initialJs?.gzipBytes ?? null,
      initialJsBrBytes: web.initialJs?.brBytes ?? null,
      firstPostMs: web.firstPostMs,
      shellMs: web.shellMs,
      note: web.note,
      lighthouse: web.lighthouse,
    },
    events: run.events,
    soak: run.soak,
    growth: run.growth,
    verification: {
      lost,
      expectations,
      counters: mismatches,
      createdPosts,
      timelines: run.timelines,
      failed: failed(run),
    },
    instance: { loadSeconds: meta?.loadSeconds ?? null, rows: meta?.rows ?? null },
    totalSeconds: Number(seconds(run.started)),
  };
  const resultsDir = path.join(ROOT, 'bench-data', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  writeFileSync(
    path.join(
      resultsDir,
      `${stamp}-${variant}-${settings.posts}${settings.quick ? '-quick' : ''}.json`,
    ),
    `${JSON.stringify({ ...report, plans: inProcess?.plans ?? null }, null, 2)}\n`,
  );
  log(`BENCH_JSON ${JSON.stringify(report)}`);
}
