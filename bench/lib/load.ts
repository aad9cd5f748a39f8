/** autocannon runs and the figures the benchmark keeps of them. */
import autocannon from 'autocannon';

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

export interface ScenarioResult {
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
  /** The server's CPU time per request answered in the throughput run, in µs. */
  cpuUsPerRequest: number | null;
  /**
   * Milliseconds a second the server's main thread waited, ready to run, for a core during the
   * latency run (what p99 is read from): the machine's other work, not the server's own.
   */
  waitMsPerSecond: number | null;
  sampleFailure: string | null;
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
