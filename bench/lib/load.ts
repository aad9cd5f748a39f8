/** autocannon runs and the figures the benchmark keeps of them. */
import autocannon from 'autocannon';
import type { PacedFigures } from './paced';

export type Request = autocannon.Request;

export interface Scenario {
  name: string;
  what: string;
  write: boolean;
  /** Fresh request templates for one autocannon run. */
  requests: () => Request[];
}

export interface RunFigures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Bytes received per answer, headers included: what a read's growth is to be read against. */
  bytesPerAnswer: number;
}

/** A figure over a scenario's rounds, so a reader sees the noise beside it. */
export interface Spread {
  min: number;
  median: number;
  max: number;
}

/** One round of a scenario: saturated throughput, then latency at half the rate it reached. */
export interface ScenarioRound {
  throughput: RunFigures;
  paced: PacedFigures;
  /** The server's CPU time per request answered in the throughput run, in µs. */
  cpuUsPerRequest: number | null;
  /**
   * Milliseconds a second the server's main thread waited, ready to run, for a core during the
   * paced run (what the percentiles are read from): the machine's other work, not the server's own.
   */
  waitMsPerSecond: number | null;
}

export interface ScenarioResult {
  name: string;
  what: string;
  /** Medians over the rounds; `spread` has each figure's min, median and max. */
  rps: number;
  ratio: number;
  p50: number;
  p99: number;
  p999: number;
  errors: number;
  non2xx: number;
  /** The round whose req/s is the median. */
  throughput: RunFigures;
  rounds: ScenarioRound[];
  spread: {
    rps: Spread;
    p50: Spread;
    p99: Spread;
    p999: Spread;
    cpuUsPerRequest: Spread | null;
  };
  rssMB: number | null;
  cpuUsPerRequest: number | null;
  waitMsPerSecond: number | null;
  sampleFailure: string | null;
}

/** Min, median (the middle one, or the mean of the two middle ones) and max; zeros when empty. */
export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0) return { min: 0, median: 0, max: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[middle] ?? 0)
      : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return { min: sorted[0] ?? 0, median, max: sorted[sorted.length - 1] ?? 0 };
}

/** `min / median / max`, each with `digits` decimals. */
export function formatSpread(spread: Spread | null, digits = 0): string {
  if (spread === null) return '-';
  return [spread.min, spread.median, spread.max].map((value) => value.toFixed(digits)).join(' / ');
}

export function fire(
  url: string,
  requests: Request[],
  connections: number,
  duration: number,
  timeoutSeconds: number,
) {
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

export function figures(result: autocannon.Result): RunFigures {
  const completed = result.requests.total;
  return {
    rps: Math.round((completed / Math.max(result.duration, 0.001)) * 10) / 10,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: completed,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    bytesPerAnswer: completed === 0 ? 0 : Math.round(result.throughput.total / completed),
  };
}

export const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
/** Bytes as kB with one decimal, as the benchmark prints sizes. */
export const kb = (bytes: number) => (bytes / 1000).toFixed(1);
