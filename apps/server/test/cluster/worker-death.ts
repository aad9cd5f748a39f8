/**
 * Load while workers die: clients keep opening connections (one request each) to a server run with
 * WORKERS > 1 while one of its workers is killed with SIGKILL, and every connection's fate is
 * counted. Used by workers-dying.test.ts and by measure-worker-death.ts.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { sleep, waitUntil } from './cluster-helpers';

/** What became of one connection. */
export type Fate = 'answered' | 'reset' | 'refused' | 'hung';

export interface LoadOutcome {
  connections: number;
  fates: Record<Fate, number>;
  /** Answers other than 200. */
  otherStatuses: number;
  kills: number;
}

/** The processes a process started (Linux). */
export function childrenOf(pid: number): number[] {
  try {
    const text = readFileSync(`/proc/${String(pid)}/task/${String(pid)}/children`, 'utf8');
    return text
      .split(' ')
      .filter((part) => part.trim() !== '')
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * One request on a connection of its own. A connection with no answer and no error within
 * `hangMs` counts as hung: a server that accepted it will never answer it.
 */
function oneConnection(port: number, path: string, hangMs: number): Promise<Fate | number> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (fate: Fate | number) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(fate);
    };
    const request = http.get({
      host: '127.0.0.1',
      port,
      path,
      agent: false,
      headers: { connection: 'close' },
    });
    const timer = setTimeout(() => {
      settle('hung');
    }, hangMs);
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => {
        settle(response.statusCode ?? 0);
      });
      response.on('error', () => {
        settle('reset');
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      settle(error.code === 'ECONNREFUSED' ? 'refused' : 'reset');
    });
  });
}

/** The workers of `primaryPid` that are alive and said they listen, oldest first. */
export function listeningWorkers(primaryPid: number, output: string): number[] {
  const alive = new Set(childrenOf(primaryPid));
  const listening = [...output.matchAll(/perch: worker \d+ listening \(pid (\d+)\)/g)].map(
    (match) => Number(match[1]),
  );
  return listening.filter((pid) => alive.has(pid));
}

export interface LoadOptions {
  port: number;
  /** The supervising process, whose workers are killed. */
  primaryPid: number;
  /** What the supervisor wrote so far (it names each worker that listens). */
  output: () => string;
  workers: number;
  /** How many workers to kill, one at a time, each once all of them listen. */
  kills: number;
  /** Connections kept opening at once. */
  concurrency: number;
  /** How long a connection may go without an answer before it counts as hung. */
  hangMs: number;
  path?: string;
  /** How long to wait for every worker to listen (at the start, and for each replacement). */
  listenTimeoutMs?: number;
  /** Whether each kill waits for the replacement to listen (else the load goes on 2 s, then ends). */
  awaitReplacement?: boolean;
}

/** Runs the load, kills `kills` workers under it, and counts what became of every connection. */
export async function loadWhileKilling(options: LoadOptions): Promise<LoadOutcome> {
  const outcome: LoadOutcome = {
    connections: 0,
    fates: { answered: 0, reset: 0, refused: 0, hung: 0 },
    otherStatuses: 0,
    kills: 0,
  };
  const killed = new Set<number>();
  // A killed worker stays among the children until the supervisor has reaped it.
  const listening = () =>
    listeningWorkers(options.primaryPid, options.output()).filter((pid) => !killed.has(pid));
  const allListening = async (what: string) => {
    await waitUntil(
      what,
      () => listening().length === options.workers,
      options.listenTimeoutMs ?? 60_000,
      50,
    );
  };
  await allListening('every worker listening');
  let running = true;
  const client = async () => {
    while (running) {
      const fate = await oneConnection(options.port, options.path ?? '/api/health', options.hangMs);
      outcome.connections += 1;
      if (typeof fate === 'number') {
        outcome.fates.answered += 1;
        if (fate !== 200) outcome.otherStatuses += 1;
      } else {
        outcome.fates[fate] += 1;
      }
    }
  };
  const clients = Array.from({ length: options.concurrency }, client);
  try {
    for (let kill = 0; kill < options.kills; kill += 1) {
      await sleep(500);
      const [victim] = listening();
      if (victim === undefined) throw new Error('no worker listens');
      process.kill(victim, 'SIGKILL');
      killed.add(victim);
      outcome.kills += 1;
      if (options.awaitReplacement === false) await sleep(2000);
      else await allListening(`a worker listening in place of ${String(victim)}`);
    }
    await sleep(500);
  } finally {
    running = false;
    await Promise.all(clients);
  }
  return outcome;
}

/** CPU time a process has used so far, in seconds (Linux). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100;
}

/**
 * Requests over `sockets` kept-alive connections for `durationMs`, as browsers and balancers send
 * them; answers how many were answered 200.
 */
export async function keepAliveLoad(
  port: number,
  sockets: number,
  durationMs: number,
  path = '/api/health',
): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const deadline = Date.now() + durationMs;
  let answered = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const request = http.get({ host: '127.0.0.1', port, path, agent }, (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode === 200) answered += 1;
          resolve();
        });
      });
      request.on('error', () => {
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: sockets }, async () => {
      while (Date.now() < deadline) await one();
    }),
  );
  agent.destroy();
  return answered;
}
