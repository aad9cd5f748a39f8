/**
 * Growth: the same reads on a small instance (10,000 posts), run by the benchmark itself in a
 * child process right after the large run, and each read's cost there against its cost on the
 * large one. CPU per request is the measure: it moves less between runs than req/s, which follows
 * the machine (each run's req/s is also given against its own baseline). The answers' sizes are
 * printed beside it, since some answers grow with the instance (more members match a search,
 * more comments are embedded) and cost more for that alone.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { formatCount, ROOT } from './lib/instance';
import { kb, type ScenarioResult } from './lib/load';
import { formatTable } from './lib/table';

/** What the issue's table asks of every read. */
export const GROWTH_TARGET = 1.2;
export const SMALL_POSTS = 10_000;

export interface GrowthRow {
  name: string;
  small: { cpuUsPerRequest: number | null; ratio: number; bytesPerAnswer: number };
  large: { cpuUsPerRequest: number | null; ratio: number; bytesPerAnswer: number };
  /** Large CPU per request ÷ small; null when either is unknown. */
  cpuGrowth: number | null;
}

export interface GrowthResult {
  smallPosts: number;
  largePosts: number;
  smallBaselineRps: number | null;
  rows: GrowthRow[];
  /** Why the small run gave no figures (it failed, or printed none). */
  error: string | null;
}

/** The small run's scenario figures, as its BENCH_JSON line gives them. */
interface SmallReport {
  baseline: { rps: number } | null;
  scenarios: {
    name: string;
    ratio: number;
    cpuUsPerRequest: number | null;
    bytesPerAnswer: number;
  }[];
  verification: { failed: boolean };
}

const round = (value: number) => Math.round(value * 100) / 100;

export function growthRows(small: SmallReport, large: readonly ScenarioResult[]): GrowthRow[] {
  const rows: GrowthRow[] = [];
  for (const read of large) {
    const other = small.scenarios.find((scenario) => scenario.name === read.name);
    if (!other) continue;
    const largeCpu = read.cpuUsPerRequest;
    const smallCpu = other.cpuUsPerRequest;
    rows.push({
      name: read.name,
      small: {
        cpuUsPerRequest: smallCpu,
        ratio: other.ratio,
        bytesPerAnswer: other.bytesPerAnswer,
      },
      large: {
        cpuUsPerRequest: largeCpu,
        ratio: read.ratio,
        bytesPerAnswer: read.throughput.bytesPerAnswer,
      },
      cpuGrowth:
        largeCpu !== null && smallCpu !== null && smallCpu > 0 ? round(largeCpu / smallCpu) : null,
    });
  }
  return rows;
}

/** The last BENCH_JSON line of a run's output. */
export function benchJsonOf(output: string): SmallReport | null {
  const line = output
    .split('\n')
    .reverse()
    .find((text) => text.startsWith('BENCH_JSON '));
  return line ? (JSON.parse(line.slice('BENCH_JSON '.length)) as SmallReport) : null;
}

/**
 * Runs `npm run bench` on the small instance for `reads` (the same seed, durations and flags) in
 * a child process, printing its progress indented, and compares its figures with `large`.
 */
export async function measureGrowth(options: {
  reads: readonly ScenarioResult[];
  largePosts: number;
  passOn: string[];
  log: (line?: string) => void;
}): Promise<GrowthResult> {
  const { reads, largePosts, passOn, log } = options;
  const result: GrowthResult = {
    smallPosts: SMALL_POSTS,
    largePosts,
    smallBaselineRps: null,
    rows: [],
    error: null,
  };
  log();
  log(`Growth: the same reads on ${formatCount(SMALL_POSTS)} posts (a run of its own):`);
  const args = [
    ...process.execArgv,
    path.join(ROOT, 'bench/bench.ts'),
    '--posts',
    String(SMALL_POSTS),
    '--only',
    reads.map((read) => read.name).join(','),
    '--no-build',
    ...passOn,
  ];
  const { code, output } = await runForOutput(process.execPath, args, (line) => {
    if (!line.startsWith('BENCH_JSON ')) log(`  | ${line}`);
  });
  const small = benchJsonOf(output);
  if (code !== 0 || small === null) {
    result.error = `the run on ${formatCount(SMALL_POSTS)} posts ended with code ${String(code)}${small === null ? ' and no figures' : ''}`;
    return result;
  }
  if (small.verification.failed)
    result.error = `the run on ${formatCount(SMALL_POSTS)} posts failed its checks`;
  result.smallBaselineRps = small.baseline?.rps ?? null;
  result.rows = growthRows(small, reads);
  return result;
}

function runForOutput(
  command: string,
  args: string[],
  onLine: (line: string) => void,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let pending = '';
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      const lines = (pending + text).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('close', (code) => {
      if (pending !== '') onLine(pending);
      resolve({ code, output });
    });
  });
}

const times = (value: number | null) => (value === null ? '-' : `${value.toFixed(2)}×`);

/** The growth table, and the reads over the target. */
export function growthReport(growth: GrowthResult): string[] {
  const smallBaseline =
    growth.smallBaselineRps === null
      ? ''
      : `; baseline of the small run ${formatCount(Math.round(growth.smallBaselineRps))} req/s`;
  const heading = `Growth ${formatCount(growth.smallPosts)} → ${formatCount(growth.largePosts)} posts (CPU µs a request on the large instance ÷ on the small; target ≤ ${GROWTH_TARGET}×${smallBaseline}):`;
  if (growth.rows.length === 0)
    return [heading, `  not measured: ${growth.error ?? 'no reads ran'}`];
  const table: string[][] = [
    [
      'read',
      'CPU µs small',
      'CPU µs large',
      'CPU growth',
      '× base small',
      '× base large',
      'kB small',
      'kB large',
    ],
  ];
  for (const row of growth.rows) {
    table.push([
      row.name,
      String(row.small.cpuUsPerRequest ?? '-'),
      String(row.large.cpuUsPerRequest ?? '-'),
      times(row.cpuGrowth),
      row.small.ratio.toFixed(3),
      row.large.ratio.toFixed(3),
      kb(row.small.bytesPerAnswer),
      kb(row.large.bytesPerAnswer),
    ]);
  }
  const over = growth.rows.filter((row) => row.cpuGrowth !== null && row.cpuGrowth > GROWTH_TARGET);
  return [
    heading,
    ...formatTable(table),
    over.length === 0
      ? `Every read within ${GROWTH_TARGET}×.`
      : `Over ${GROWTH_TARGET}×: ${over.map((row) => `${row.name} ${times(row.cpuGrowth)}`).join(', ')}.`,
    ...(growth.error ? [`Growth: ${growth.error}.`] : []),
  ];
}
