/**
 * A constant-rate load generator: each request has an intended send time (`start + i / rate`) and
 * its latency is measured from that time, not from when it left, so a server that stalls is charged
 * for every request it kept waiting (coordinated omission). autocannon 9's `overallRate` sends each
 * second's requests in a burst at the top of the second, and its correction divides by a 1 ms
 * interval whatever the rate (`Math.ceil(1 / rate)`), so its latencies at a fixed rate are neither.
 *
 * Requests are the scenarios' autocannon templates (`setupRequest`, `onResponse`), each sequence
 * (a like then its unlike) played in order by one flow; a request with no idle flow opens another.
 */
import http from 'node:http';
import type autocannon from 'autocannon';
import { percentile } from './prng';

/** A request as the throughput runs describe it (autocannon's), so both runs send the same. */
type Request = autocannon.Request;

export interface PacedOptions {
  url: string;
  requests: Request[];
  /** Requests a second. */
  rate: number;
  seconds: number;
  /** Keep-alive sockets at most; requests beyond them wait in the agent, and that wait counts. */
  connections: number;
  timeoutSeconds: number;
}

export interface PacedFigures {
  /** The rate asked for and the rate answered. */
  rate: number;
  rps: number;
  requests: number;
  /** Latency from each request's intended send time, ms. */
  p50: number;
  p99: number;
  p999: number;
  max: number;
  /** How late the generator itself sent, p99 ms (timer resolution, its own CPU). */
  sendLagP99: number;
  errors: number;
  non2xx: number;
}

interface Flow {
  cursor: number;
  context: Record<string, unknown>;
}

interface Prepared {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** The request a template gives for a flow: its own fields, then what `setupRequest` makes of them. */
function prepare(template: Request, context: Record<string, unknown>): Prepared {
  const base = {
    method: template.method ?? 'GET',
    path: template.path ?? '/',
    headers: { ...(template.headers ?? {}) } as Record<string, string>,
    body: typeof template.body === 'string' ? template.body : undefined,
  };
  const setup = template.setupRequest as
    ((request: typeof base, context: Record<string, unknown>) => Partial<typeof base>) | undefined;
  const made = setup ? { ...base, ...setup(base, context) } : base;
  return {
    method: made.method,
    path: made.path,
    headers: made.headers,
    body: made.body,
  };
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;

function summarise(
  options: PacedOptions,
  latencies: number[],
  lags: number[],
  counts: { errors: number; non2xx: number; elapsedMs: number },
): PacedFigures {
  const sorted = Float64Array.from(latencies).sort();
  const sortedLags = Float64Array.from(lags).sort();
  return {
    rate: Math.round(options.rate),
    rps: Math.round((sorted.length / Math.max(counts.elapsedMs, 1)) * 10_000) / 10,
    requests: sorted.length,
    p50: round3(percentile(sorted, 50)),
    p99: round3(percentile(sorted, 99)),
    p999: round3(percentile(sorted, 99.9)),
    max: round3(sorted[sorted.length - 1] ?? 0),
    sendLagP99: round3(percentile(sortedLags, 99)),
    errors: counts.errors,
    non2xx: counts.non2xx,
  };
}

/** Sends `options.rate` requests a second for `options.seconds`, then waits for the answers. */
export function firePaced(options: PacedOptions): Promise<PacedFigures> {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const total = Math.max(1, Math.round(options.rate * options.seconds));
  const interval = 1000 / options.rate;
  const idle: Flow[] = [];
  const latencies: number[] = [];
  const lags: number[] = [];
  const counts = { errors: 0, non2xx: 0, elapsedMs: 0 };
  let scheduled = 0;
  let settled = 0;
  const start = performance.now() + 5;

  return new Promise((resolve) => {
    const finish = () => {
      counts.elapsedMs = performance.now() - start;
      agent.destroy();
      resolve(summarise(options, latencies, lags, counts));
    };
    const done = () => {
      settled += 1;
      if (settled === total) finish();
    };
    const send = (intended: number) => {
      let answered = false;
      const flow = idle.pop() ?? { cursor: 0, context: {} };
      const template = options.requests[flow.cursor % options.requests.length];
      flow.cursor += 1;
      if (!template) throw new Error('no request to send');
      const request = prepare(template, flow.context);
      lags.push(performance.now() - intended);
      const headers = { ...request.headers };
      if (request.body !== undefined)
        headers['content-length'] = String(Buffer.byteLength(request.body));
      const outgoing = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: request.method,
          path: request.path,
          headers,
          timeout: options.timeoutSeconds * 1000,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            if (answered) return;
            answered = true;
            latencies.push(performance.now() - intended);
            const status = response.statusCode ?? 0;
            if (status < 200 || status >= 300) counts.non2xx += 1;
            const onResponse = template.onResponse as
              | ((status: number, body: string, context: Record<string, unknown>) => void)
              | undefined;
            onResponse?.(status, Buffer.concat(chunks).toString(), flow.context);
            idle.push(flow);
            done();
          });
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error('timeout')));
      outgoing.on('error', () => {
        if (answered) return;
        answered = true;
        counts.errors += 1;
        idle.push(flow);
        done();
      });
      outgoing.end(request.body);
    };
    const tick = () => {
      const now = performance.now();
      while (scheduled < total && start + scheduled * interval <= now) {
        send(start + scheduled * interval);
        scheduled += 1;
      }
      if (scheduled < total) {
        setTimeout(tick, Math.max(0, start + scheduled * interval - performance.now()));
      }
    };
    setTimeout(tick, 5);
  });
}
