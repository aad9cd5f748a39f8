import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { parseSseBlock } from '../events/sse-client';
import { adminUrl } from '../test-database';

/** The repository root: the server processes run from there, as `npm start` would. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const serverEntry = path.join(repoRoot, 'apps/server/src/server.ts');
const tsxBin = path.join(repoRoot, 'node_modules/.bin/tsx');

/** Whether the TypeScript sources can be run by a child process (tsx is installed). */
export function tsxInstalled(): boolean {
  return existsSync(tsxBin) && existsSync(serverEntry);
}

export const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

/** Thrown by a waitUntil check to give up at once rather than retry. */
export class GiveUp extends Error {}

/**
 * Retries `check` every `everyMs` until it answers true; throws after `timeoutMs`. A check that
 * throws is retried, unless it throws GiveUp.
 */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  everyMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      if (error instanceof GiveUp) throw error;
      // Not yet: try again until the deadline.
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${String(timeoutMs)} ms`);
    await sleep(everyMs);
  }
}

// --- PostgreSQL -------------------------------------------------------------------------------

export interface ClusterDatabase {
  url: string;
  drop: () => Promise<void>;
}

/** A brand-new, empty PostgreSQL database for the file (as test-database.ts makes them). */
export async function createClusterDatabase(): Promise<ClusterDatabase> {
  const name = `perch_cluster_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl(), connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl(), connectionTimeoutMillis: 5000 });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

// --- server processes ---------------------------------------------------------------------------

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Whatever happens to the test process, the servers it started do not outlive it. */
function killAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

export interface ServerProcess {
  name: string;
  /** http://127.0.0.1:<port> */
  base: string;
  pid: number;
  /** What the process wrote (JSON log lines), newest last, at most about 200 kB. */
  output: () => string;
  /** The log lines that parse as JSON, for checks on what was logged. */
  logRecords: () => Record<string, unknown>[];
  exited: () => boolean;
  /** How it exited ("code 0, signal null"), null while it runs. */
  exitStatus: () => string | null;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop: (graceMs?: number) => Promise<void>;
}

export interface StartServerOptions {
  name: string;
  env: Record<string, string>;
  /** How long to wait for GET /api/health to answer 200. */
  readyTimeoutMs?: number;
}

const OUTPUT_LIMIT = 200_000;

/**
 * Starts `node --import tsx apps/server/src/server.ts` with exactly `env` (plus PATH and HOME) and
 * waits until GET /api/health answers 200.
 */
export async function startServer(options: StartServerOptions): Promise<ServerProcess> {
  killAllOnExit();
  const port = options.env.PORT;
  if (!port) throw new Error('startServer: env.PORT is required');
  const base = `http://127.0.0.1:${port}`;
  const dataDir = options.env.DATA_DIR;
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`${options.name}: could not start node`);
  running.add(child);
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.length > OUTPUT_LIMIT) output = output.slice(-OUTPUT_LIMIT / 2);
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  let exitedWith: string | null = null;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exitedWith = `code ${String(code)}, signal ${String(signal)}`;
      running.delete(child);
      resolve();
    });
  });

  const stop = async (graceMs = 10_000) => {
    if (exitedWith !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };

  const server: ServerProcess = {
    name: options.name,
    base,
    pid: child.pid,
    output: () => output,
    logRecords: () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    exited: () => exitedWith !== null,
    exitStatus: () => exitedWith,
    stop,
  };

  try {
    await waitUntil(
      `${options.name} answering GET /api/health`,
      async () => {
        if (exitedWith !== null) {
          throw new GiveUp(
            `${options.name} exited (${exitedWith}) before it was ready:\n${output}`,
          );
        }
        const response = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(1000) });
        return response.status === 200;
      },
      options.readyTimeoutMs ?? 30_000,
      100,
    );
  } catch (error) {
    await stop(2000);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (error instanceof GiveUp) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason}; its output:\n${output.slice(-5000)}`);
  }
  return server;
}

// --- HTTP -------------------------------------------------------------------------------------

export interface ApiAnswer {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
  /** How long the request took, in ms. */
  ms: number;
}

export interface ApiRequest {
  method?: string;
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** One JSON request to a server, bounded by a timeout. */
export async function api(base: string, url: string, request: ApiRequest = {}): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.token) headers.authorization = request.token;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  const response = await fetch(`${base}${url}`, {
    method: request.method ?? (request.body === undefined ? 'GET' : 'POST'),
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    signal: AbortSignal.timeout(request.timeoutMs ?? 10_000),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    body = text;
  }
  return {
    status: response.status,
    body,
    text,
    headers: response.headers,
    ms: performance.now() - started,
  };
}

// --- Server-Sent Events -------------------------------------------------------------------------

export interface SseFrame {
  id: string | null;
  event: string;
  data: unknown;
  /** performance.now() when the frame was complete. */
  at: number;
}

export interface EventStream {
  frames: SseFrame[];
  /** The next frame at or after index `from` that matches, waiting at most `timeoutMs`. */
  waitFor: (
    what: string,
    match: (frame: SseFrame) => boolean,
    timeoutMs: number,
    from?: number,
  ) => Promise<SseFrame>;
  ended: () => boolean;
  close: () => void;
}

interface Waiter {
  match: (frame: SseFrame) => boolean;
  from: number;
  resolve: (frame: SseFrame) => void;
  reject: (error: Error) => void;
}

function parseFrame(block: string, at: number): SseFrame | null {
  const message = parseSseBlock(block);
  if (!message) return null;
  const id = message.id === undefined ? null : String(message.id);
  return { id, event: message.event, data: message.data, at };
}

/**
 * GET /api/events over node:http, with the session cookie (and Last-Event-ID when given). Resolves
 * once the answer's head arrived with 200; frames are collected as they come.
 */
export function openEventStream(
  base: string,
  options: { cookie: string; lastEventId?: string; timeoutMs?: number },
): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const frames: SseFrame[] = [];
    const waiters = new Set<Waiter>();
    let ended = false;
    let buffer = '';

    const settle = () => {
      for (const waiter of [...waiters]) {
        const frame = frames.slice(waiter.from).find(waiter.match);
        if (frame) {
          waiters.delete(waiter);
          waiter.resolve(frame);
        } else if (ended) {
          waiters.delete(waiter);
          waiter.reject(new Error('the event stream ended'));
        }
      }
    };

    const headers: Record<string, string> = {
      accept: 'text/event-stream',
      cookie: options.cookie,
    };
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    const request = http.get(`${base}/api/events`, { headers, agent: false });
    const connectTimer = setTimeout(() => {
      request.destroy(new Error('no answer to GET /api/events in time'));
    }, options.timeoutMs ?? 5000);

    request.on('error', (error) => {
      clearTimeout(connectTimer);
      ended = true;
      settle();
      reject(error);
    });
    request.on('response', (response) => {
      clearTimeout(connectTimer);
      if (response.statusCode !== 200) {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          reject(new Error(`GET /api/events answered ${String(response.statusCode)}: ${body}`));
        });
        return;
      }
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const at = performance.now();
        buffer = (buffer + chunk).replace(/\r\n?/g, '\n');
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const frame = parseFrame(buffer.slice(0, end), at);
          buffer = buffer.slice(end + 2);
          if (frame) frames.push(frame);
          end = buffer.indexOf('\n\n');
        }
        settle();
      });
      const onEnd = () => {
        ended = true;
        settle();
      };
      response.on('end', onEnd);
      response.on('close', onEnd);
      response.on('error', onEnd);
      resolve({
        frames,
        waitFor: (what, match, timeoutMs, from = 0) =>
          new Promise<SseFrame>((resolveFrame, rejectFrame) => {
            const timer = setTimeout(() => {
              waiters.delete(waiter);
              const seen = frames
                .slice(from)
                .map((frame) => `${frame.id ?? '-'} ${frame.event} ${JSON.stringify(frame.data)}`)
                .join('\n  ');
              rejectFrame(
                new Error(
                  `${what}: no such event within ${String(timeoutMs)} ms; received since:\n  ${seen}`,
                ),
              );
            }, timeoutMs);
            const waiter: Waiter = {
              match,
              from,
              resolve: (frame) => {
                clearTimeout(timer);
                resolveFrame(frame);
              },
              reject: (error) => {
                clearTimeout(timer);
                rejectFrame(new Error(`${what}: ${error.message}`));
              },
            };
            waiters.add(waiter);
            settle();
          }),
        ended: () => ended,
        close: () => {
          ended = true;
          request.destroy();
          settle();
        },
      });
    });
  });
}

// --- Redis --------------------------------------------------------------------------------------

/** Runs `work` with a short-lived connection to `url` that never waits for a missing Redis. */
export async function withRedis<T>(url: string, work: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    commandTimeout: 1000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await work(redis);
  } finally {
    redis.disconnect();
  }
}

/** How many connected clients carry each name (CLIENT SETNAME), e.g. perch:command. */
export async function clientNames(url: string): Promise<Map<string, number>> {
  return withRedis(url, async (redis) => {
    const list = (await redis.client('LIST')) as string;
    const counts = new Map<string, number>();
    for (const line of list.split('\n')) {
      const name = /(?:^| )name=(\S*)/.exec(line)?.[1];
      if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    return counts;
  });
}

/** How many connections are subscribed to `channel`. */
export async function subscribers(url: string, channel: string): Promise<number> {
  return withRedis(url, async (redis) => {
    const answer = await redis.pubsub('NUMSUB', channel);
    return Number(answer[1]);
  });
}

/**
 * Waits until `instances` servers have their command and subscriber connections up and are
 * subscribed to the event channel: Redis is in use by all of them again.
 */
export async function waitForRedisClients(
  url: string,
  instances: number,
  timeoutMs: number,
): Promise<void> {
  await waitUntil(
    `${String(instances)} servers connected to Redis and subscribed`,
    async () => {
      const names = await clientNames(url);
      return (
        (names.get('perch:command') ?? 0) >= instances &&
        (names.get('perch:subscriber') ?? 0) >= instances &&
        (await subscribers(url, 'perch:events')) >= instances
      );
    },
    timeoutMs,
    100,
  );
}

/** Removes what `temp` made; never throws. */
export function removeDir(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}
