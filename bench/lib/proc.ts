import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pinning } from './pinning';

export const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      if (address === null || typeof address === 'string') {
        probe.close();
        reject(new Error('no free port'));
        return;
      }
      probe.close(() => {
        resolve(address.port);
      });
    });
  });
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * VmRSS and VmHWM (peak) of a process and all its descendants (a server run with WORKERS > 1 is a
 * supervisor and its workers), in bytes; null once it is gone. The peak is the sum of each
 * process's own peak: an upper bound of what they held at one moment.
 */
export function memoryOf(pid: number): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    const total = { rss: kb('VmRSS') * 1024, peak: kb('VmHWM') * 1024 };
    for (const child of childrenOf(pid)) {
      const memory = memoryOf(child);
      if (memory) {
        total.rss += memory.rss;
        total.peak += memory.peak;
      }
    }
    return total;
  } catch {
    return null;
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux's supported platforms). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user and system) a process and all its descendants have used so far; null once it
 * is gone. Steadier than throughput on a machine shared with other work: the load generator's
 * share of the cores does not enter it.
 */
export function cpuSecondsOf(pid: number): number | null {
  return summedOverTree(pid, (id) => {
    const stat = readFileSync(`/proc/${id}/stat`, 'utf8');
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  });
}

/** `read` of a process plus that of each of its descendants; null when it throws for the process. */
function summedOverTree(pid: number, read: (pid: number) => number): number | null {
  let total: number;
  try {
    total = read(pid);
  } catch {
    return null;
  }
  for (const child of childrenOf(pid)) total += summedOverTree(child, read) ?? 0;
  return total;
}

/**
 * The nanoseconds a thread spent ready to run but waiting for a core, from the text of its
 * `/proc/PID/task/TID/schedstat` (time on a core, time waiting, time slices); null if unreadable.
 */
export function runQueueWaitNs(schedstat: string): number | null {
  const waited = Number(schedstat.trim().split(/\s+/)[1]);
  return Number.isFinite(waited) && waited >= 0 ? waited : null;
}

/**
 * Seconds the main threads of a process and all its descendants (a supervisor and its workers)
 * have waited, ready to run, for a core; null once it is gone or where the kernel does not keep
 * it. A request waits with its event loop, so this is what the machine's other work (the load
 * generator, the server's own helper threads) adds to latency on top of the server's own work.
 */
export function runQueueWaitSecondsOf(pid: number): number | null {
  return summedOverTree(pid, (id) => {
    const waited = runQueueWaitNs(readFileSync(`/proc/${id}/task/${id}/schedstat`, 'utf8'));
    if (waited === null) throw new Error(`no run-queue wait for ${id}`);
    return waited / 1e9;
  });
}

/** Milliseconds a second waited between two readings of runQueueWaitSecondsOf `seconds` apart. */
export function waitPerSecond(
  before: number | null,
  after: number | null,
  seconds: number,
): number | null {
  if (before === null || after === null || seconds <= 0 || after < before) return null;
  return Math.round(((after - before) / seconds) * 1000);
}

export interface RunningServer {
  name: string;
  url: string;
  pid: number;
  child: ChildProcess;
  /** Highest VmRSS seen by the sampler. */
  maxSampledRss: () => number;
  logs: () => string;
  stop: () => Promise<void>;
}

/** Starts a server process and waits until `healthPath` answers 200. */
export async function startServer(options: {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  port: number;
  healthPath: string;
  cwd: string;
  timeoutMs?: number;
}): Promise<RunningServer> {
  // taskset execs the server, so the child's pid is the server's.
  const [command = options.command, ...args] = [
    ...pinning().serverPrefix,
    options.command,
    ...options.args,
  ];
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name}: could not start ${options.command}`);

  let maxRss = 0;
  const sampler = setInterval(() => {
    const memory = memoryOf(pid);
    if (memory) maxRss = Math.max(maxRss, memory.rss);
  }, 250);
  sampler.unref();

  const url = `http://127.0.0.1:${options.port}`;
  const logs = () => output.join('').split('\n').slice(-40).join('\n');
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      clearInterval(sampler);
      resolve();
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killed = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
    if (!killed) {
      child.kill('SIGKILL');
      await exited;
    }
  };

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${options.name} exited during start-up:\n${logs()}`);
    }
    try {
      const response = await fetch(url + options.healthPath, { signal: AbortSignal.timeout(2000) });
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${options.name} did not answer ${options.healthPath} in time:\n${logs()}`);
    }
    await sleep(100);
  }
  return { name: options.name, url, pid, child, maxSampledRss: () => maxRss, logs, stop };
}

/** Waits until the server answers `path` quickly again (work queued by a previous run is done). */
export async function settle(url: string, path: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quick = 0;
  while (Date.now() < deadline && quick < 3) {
    const started = performance.now();
    try {
      await fetch(url + path, { signal: AbortSignal.timeout(timeoutMs) });
    } catch {
      // keep polling
    }
    quick = performance.now() - started < 20 ? quick + 1 : 0;
    if (quick < 3) await sleep(50);
  }
}

/**
 * The flags `npm start` gives node for the server (package.json's `config.nodeFlags`), so that
 * the benchmark measures the server as it is started.
 */
export function serverNodeFlags(root: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    config?: { nodeFlags?: string };
  };
  return (manifest.config?.nodeFlags ?? '').split(/\s+/).filter((flag) => flag !== '');
}
