/**
 * The load generator on a core of its own when the machine has more than two: this process (and
 * every thread of it) on the last core, the servers it starts on the others. On two cores a core
 * each would leave the server's helper threads (checkpoints, garbage collection) none to spare, so
 * nothing is pinned and the output says so.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

export interface Pinning {
  /** Prefix for a server's command line (`taskset -c 0-N`), empty when not pinned. */
  serverPrefix: string[];
  note: string;
}

let decided: Pinning | null = null;

function decide(): Pinning {
  const cores = availableParallelism();
  if (cores <= 2) {
    return {
      serverPrefix: [],
      note: `Load generator not pinned: the machine has ${cores} cores (it gets one of its own only above 2), so it shares them with the server; compare CPU µs/req first.`,
    };
  }
  const last = cores - 1;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(last), String(process.pid)], {
      stdio: 'ignore',
    });
  } catch {
    return {
      serverPrefix: [],
      note: `Load generator not pinned: taskset failed; it shares the machine's ${cores} cores with the server.`,
    };
  }
  return {
    serverPrefix: ['taskset', '-c', `0-${last - 1}`],
    note: `Load generator pinned to core ${last} (taskset); the servers run on cores 0-${last - 1}.`,
  };
}

/** Pins this process on first use (once) and tells how servers are to be started. */
export function pinning(): Pinning {
  decided ??= decide();
  return decided;
}
