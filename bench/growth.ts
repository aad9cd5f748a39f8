/**
 * Growth: each read's cost on the large instance against its cost on a small one (10,000 posts),
 * measured with both servers running side by side in alternating slices (bench/run/growth-pairs.ts).
 * Measured minutes apart, as two runs, the figures followed the machine rather than the instance:
 * its speed moves by a quarter within minutes (the bare Fastify baseline went from 26,527 to 34,011
 * req/s between a run and the next), and every read's growth moved with it. Each round gives one
 * growth per read, the large slice's CPU per request over the small slice's, the two slices taken
 * one after the other, the order turned each round; the median round is the figure, and the spread
 * of the rounds is printed beside it. CPU per request is the measure (the load generator's share of
 * the cores does not enter it); the answers' sizes are printed too, since some answers grow with
 * the instance (more members match a search, more comments are embedded) and cost more for that.
 */
import { formatCount } from './lib/instance';
import { formatSpread, kb, type Spread } from './lib/load';
import { formatTable } from './lib/table';

/** The growth target for every read (docs/performance.md). */
export const GROWTH_TARGET = 1.2;
export const SMALL_POSTS = 10_000;

/** One throughput slice of a read on one of the two servers. */
export interface GrowthSlice {
  requests: number;
  /** The server's CPU seconds over the slice; null when /proc could not tell. */
  cpuSeconds: number | null;
  rps: number;
  bytesPerAnswer: number;
}

export interface GrowthSide {
  /** CPU µs a request over all of the side's slices. */
  cpuUsPerRequest: number | null;
  /** Median req/s of the slices against the run's baseline. */
  ratio: number;
  bytesPerAnswer: number;
}

export interface GrowthRow {
  name: string;
  small: GrowthSide;
  large: GrowthSide;
  /** Each round's large CPU per request ÷ small; null where either is unknown. */
  rounds: (number | null)[];
  /** The median round; null when no round is known. */
  cpuGrowth: number | null;
}

export interface GrowthWork {
  members: number;
  /** How many members each load member follows, on each side. */
  followingSmall: Spread;
  followingLarge: Spread;
}

export interface GrowthResult {
  smallPosts: number;
  largePosts: number;
  rounds: number;
  sliceSeconds: number;
  rows: GrowthRow[];
  /** The work both sides did: as many members, matched by how many they follow. */
  work: GrowthWork | null;
  /** Why growth was not measured, or not for every read. */
  error: string | null;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? null)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const cpuPerRequest = (slice: GrowthSlice) =>
  slice.cpuSeconds === null || slice.requests === 0 ? null : slice.cpuSeconds / slice.requests;

function sideFigures(slices: readonly GrowthSlice[], baselineRps: number): GrowthSide {
  const known = slices.filter((slice) => cpuPerRequest(slice) !== null);
  const requests = known.reduce((sum, slice) => sum + slice.requests, 0);
  const cpu = known.reduce((sum, slice) => sum + (slice.cpuSeconds ?? 0), 0);
  const rps = median(slices.map((slice) => slice.rps)) ?? 0;
  const answered = slices.reduce((sum, slice) => sum + slice.requests, 0);
  const bytes = slices.reduce((sum, slice) => sum + slice.bytesPerAnswer * slice.requests, 0);
  return {
    cpuUsPerRequest: requests === 0 ? null : Math.round((cpu / requests) * 1e6),
    ratio: baselineRps > 0 ? Math.round((rps / baselineRps) * 1000) / 1000 : 0,
    bytesPerAnswer: answered === 0 ? 0 : Math.round(bytes / answered),
  };
}

/** A read's row from its slices, round by round (`large[i]` and `small[i]` are round i's). */
export function growthRow(
  name: string,
  large: readonly GrowthSlice[],
  small: readonly GrowthSlice[],
  baselineRps: number,
): GrowthRow {
  const rounds = large.map((slice, index) => {
    const other = small[index];
    const largeCost = cpuPerRequest(slice);
    const smallCost = other ? cpuPerRequest(other) : null;
    return largeCost === null || smallCost === null || smallCost === 0
      ? null
      : round2(largeCost / smallCost);
  });
  const growth = median(rounds.filter((value) => value !== null));
  return {
    name,
    small: sideFigures(small, baselineRps),
    large: sideFigures(large, baselineRps),
    rounds,
    cpuGrowth: growth === null ? null : round2(growth),
  };
}

const times = (value: number | null) => (value === null ? '-' : `${value.toFixed(2)}×`);

/** The spread of a row's rounds, as `low–high`. */
function spread(row: GrowthRow): string {
  const known = row.rounds.filter((value) => value !== null);
  if (known.length === 0) return '-';
  return `${Math.min(...known).toFixed(2)}–${Math.max(...known).toFixed(2)}`;
}

/** What made the two sides' work equal, in one line. */
export function workLine(work: GrowthWork): string {
  return `Equal work: ${work.members} members on each side, the large instance's matched one to one to the small one's by how many they follow (following min / median / max: ${formatSpread(work.followingSmall)} small, ${formatSpread(work.followingLarge)} large); every page holds 20 items; kB small / large tell answers that still differ (a search finding more members).`;
}

/** The growth table, and the reads over the target. */
export function growthReport(growth: GrowthResult): string[] {
  const heading = `Growth ${formatCount(growth.smallPosts)} → ${formatCount(growth.largePosts)} posts (CPU µs a request on the large instance ÷ on the small, both servers running, median of ${growth.rounds} rounds of ${growth.sliceSeconds} s slices taking turns; target ≤ ${GROWTH_TARGET}×):`;
  if (growth.rows.length === 0)
    return [heading, `  not measured: ${growth.error ?? 'no reads ran'}`];
  const table: string[][] = [
    [
      'read',
      'CPU µs small',
      'CPU µs large',
      'CPU growth',
      'rounds',
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
      spread(row),
      row.small.ratio.toFixed(3),
      row.large.ratio.toFixed(3),
      kb(row.small.bytesPerAnswer),
      kb(row.large.bytesPerAnswer),
    ]);
  }
  const over = growth.rows.filter((row) => row.cpuGrowth !== null && row.cpuGrowth > GROWTH_TARGET);
  return [
    heading,
    ...(growth.work ? [workLine(growth.work)] : []),
    ...formatTable(table),
    over.length === 0
      ? `Every read within ${GROWTH_TARGET}×.`
      : `Over ${GROWTH_TARGET}×: ${over.map((row) => `${row.name} ${times(row.cpuGrowth)}`).join(', ')}.`,
    ...(growth.error ? [`Growth: ${growth.error}.`] : []),
  ];
}
