/**
 * The soak run (`npm run bench -- --soak 300`): mixed reads and writes against one server for a
 * long stretch, in slices, to see whether throughput, latency and memory hold. Each slice reports
 * its req/s, p99 and errors and the server's resident memory after it; the summary says whether
 * memory levelled off (the last third of the run grew by less than 5% over the middle third).
 */

export interface SoakSliceFigures {
  rps: number;
  p99: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
}

export interface SoakSlice extends SoakSliceFigures {
  /** Seconds since the soak began, at the end of the slice. */
  at: number;
  serverErrors: number;
  rssMB: number | null;
}

export interface SoakResult {
  seconds: number;
  slices: SoakSlice[];
  requests: number;
  rps: number;
  worstP99: number;
  serverErrors: number;
  errors: number;
  rssStartMB: number | null;
  rssEndMB: number | null;
  rssMaxMB: number | null;
  levelledOff: boolean | null;
}

export interface SoakOptions {
  seconds: number;
  sliceSeconds: number;
  /** Runs the mixed load for this many seconds. */
  fire: (seconds: number) => Promise<SoakSliceFigures>;
  /** The server's resident memory now, in MB. */
  rssMB: () => number | null;
  /** 5xx answers so far. */
  serverErrors: () => number;
  log: (line?: string) => void;
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const { log } = options;
  const rssStartMB = options.rssMB();
  log(`  start: RSS ${String(rssStartMB)} MB`);
  const slices: SoakSlice[] = [];
  let elapsed = 0;
  let errorsBefore = options.serverErrors();
  while (elapsed < options.seconds) {
    const length = Math.min(options.sliceSeconds, options.seconds - elapsed);
    const figures = await options.fire(length);
    elapsed += length;
    const errorsNow = options.serverErrors();
    const slice: SoakSlice = {
      ...figures,
      at: elapsed,
      serverErrors: errorsNow - errorsBefore,
      rssMB: options.rssMB(),
    };
    errorsBefore = errorsNow;
    slices.push(slice);
    log(
      `  ${String(slice.at).padStart(5)} s  ${slice.rps.toFixed(0).padStart(6)} req/s  p99 ${String(slice.p99).padStart(4)} ms  5xx ${slice.serverErrors}  errors ${slice.errors + slice.timeouts}  RSS ${String(slice.rssMB)} MB`,
    );
  }
  const requests = slices.reduce((sum, s) => sum + s.requests, 0);
  const rss = slices.map((s) => s.rssMB).filter((value): value is number => value !== null);
  const third = Math.floor(rss.length / 3);
  const levelledOff =
    third === 0 ? null : mean(rss.slice(-third)) <= mean(rss.slice(third, 2 * third)) * 1.05;
  return {
    seconds: elapsed,
    slices,
    requests,
    rps: Math.round((requests / Math.max(elapsed, 1)) * 10) / 10,
    worstP99: Math.max(0, ...slices.map((s) => s.p99)),
    serverErrors: slices.reduce((sum, s) => sum + s.serverErrors, 0),
    errors: slices.reduce((sum, s) => sum + s.errors + s.timeouts, 0),
    rssStartMB,
    rssEndMB: rss.at(-1) ?? null,
    rssMaxMB: rss.length > 0 ? Math.max(...rss) : null,
    levelledOff,
  };
}

export function soakSummary(result: SoakResult): string {
  const level =
    result.levelledOff === null ? 'too short to tell' : result.levelledOff ? 'yes' : 'NO';
  return (
    `Soak: ${result.seconds} s, ${result.requests} requests, ${result.rps} req/s, worst p99 ` +
    `${result.worstP99} ms, 5xx ${result.serverErrors}, errors ${result.errors}; RSS ` +
    `${String(result.rssStartMB)} → ${String(result.rssEndMB)} MB (max ${String(result.rssMaxMB)}), ` +
    `levelled off: ${level}`
  );
}
