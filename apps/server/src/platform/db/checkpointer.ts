import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Copies a SQLite file's write-ahead log back into the database on a worker thread, so that no
 * request waits for it.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that fills the log past 1,000 pages, on
 * the committing connection, and with `synchronous = NORMAL` it is the one step that syncs the
 * files to disk. On the 1,000,000-post instance a batch of six likes then committed in 1.4–2.2 ms
 * instead of 0.27 ms, and as better-sqlite3 is synchronous the whole event loop waited. The writer
 * turns that off (`wal_autocheckpoint = 0`, see openSqlite) and this thread checkpoints in PASSIVE
 * mode every `intervalMs`: it copies what no reader still needs and never blocks the writer or the
 * readers. Once the log is all copied the next write starts it over from the beginning, and
 * `journal_size_limit` trims a log that grew meanwhile. Durability is unchanged: commits never
 * synced under `synchronous = NORMAL`, checkpoints still do.
 *
 * Under steady writes the log was never all copied when a write began (each commit appends while
 * a checkpoint copies), so it never started over: on the 1,000,000-post instance it grew by about
 * 100 MB a second of posting, to 1.6–4 GB. Past `restartFrames` the thread therefore checkpoints
 * in RESTART mode: it holds writers off (they wait for the lock between turns of the event loop,
 * see database.ts) while it copies the little the passive passes left, then the next write starts
 * the log over (see RESTART below for how it keeps that short). The log then stays under about
 * `restartFrames` pages, and a log that grew past journal_size_limit meanwhile is cut back to it
 * once started over.
 */
export interface Checkpointer {
  /** Resolves with the next checkpoint's frames (log: in the log, copied: moved to the file). */
  next(): Promise<CheckpointResult>;
  stop(): Promise<void>;
}

export interface CheckpointResult {
  log: number;
  copied: number;
  /** The log was copied whole with writers held off, so that the next write starts it over. */
  restarted: boolean;
}

const DEFAULT_INTERVAL_MS = 250;
/**
 * 256 MB of 4 KiB pages. At 64 MB the benchmark's writes (about 4,000 a second on 1,000,000
 * posts) met a restart every 0.8 s, at 256 MB every 2–3 s. An instance that writes less seldom
 * reaches it. The log started over is written over in place (see LOG_SIZE_LIMIT_BYTES in
 * database.ts).
 */
export const DEFAULT_RESTART_FRAMES = 65_536;

/**
 * How the thread starts the log over while writes go on. A checkpoint that must wait holds the
 * write lock meanwhile, so it never waits: `busy_timeout` stays 0, and a restart that finds the
 * lock taken, or a reader still on an older part of the log, is tried again a few milliseconds
 * later (each try copies what it can meanwhile). Before the first try, the database file is
 * synced while writers go on: a passive checkpoint that leaves part of the log uncopied does not
 * sync the file, so the restart's own sync had every page copied since the last restart to write
 * out, 20–170 ms of writers held off on the benchmark's instance. That sync is an fdatasync: the
 * file's only other change is its modification time, which a full fsync commits through the file
 * system's journal, where the event loop's own writes to the log can then wait (on ext4, likes
 * answered 2–13% more a second and comments 2–9%, three pairs of runs; p99 alike).
 */
const RESTART = {
  /** Tries, `pauseMs` apart, before the next interval: 0.1–0.3 s of them. */
  attempts: 40,
  pauseMs: 3,
  /** Copy-and-sync rounds before the restart, until a sync takes less than quickSyncMs. */
  catchUpRounds: 4,
  quickSyncMs: 10,
};

// Evaluated as the worker's script (CommonJS): it is small, and a file of its own would have to be
// found beside the bundled server.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { closeSync, fdatasyncSync, openSync } = require('node:fs');
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const file = openSync(workerData.filename, 'r+');
const pause = new Int32Array(new SharedArrayBuffer(4));
const { attempts, pauseMs, catchUpRounds, quickSyncMs } = workerData.restart;
const passive = () => db.pragma('wal_checkpoint(PASSIVE)')[0];
const catchUp = () => {
  for (let round = 0; round < catchUpRounds; round++) {
    if (round > 0) passive();
    const started = performance.now();
    fdatasyncSync(file);
    if (performance.now() - started < quickSyncMs) return;
  }
};
const restart = (row) => {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) Atomics.wait(pause, 0, 0, pauseMs);
    [row] = db.pragma('wal_checkpoint(RESTART)');
    if (row.busy === 0) return { row, restarted: true };
  }
  return { row, restarted: false };
};
const checkpoint = () => {
  try {
    let row = passive();
    let restarted = false;
    if (row.log >= workerData.restartFrames) {
      catchUp();
      ({ row, restarted } = restart(row));
    }
    parentPort.postMessage({ log: row.log, copied: row.checkpointed, restarted });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  closeSync(file);
  db.close();
  parentPort.close();
});
`;

export function startCheckpointer(
  filename: string,
  {
    intervalMs = DEFAULT_INTERVAL_MS,
    restartFrames = DEFAULT_RESTART_FRAMES,
  }: { intervalMs?: number; restartFrames?: number } = {},
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { filename, driver, intervalMs, restartFrames, restart: RESTART },
  });
  // It must never keep a process alive that has nothing else to do.
  worker.unref();
  let waiting: ((result: CheckpointResult) => void)[] = [];
  let reportedError = false;
  worker.on('message', (message: CheckpointResult | { error: string }) => {
    if ('error' in message) {
      // A busy lock or a full disk: the next interval tries again; say so once.
      if (!reportedError) console.warn(`perch: a WAL checkpoint failed: ${message.error}`);
      reportedError = true;
      return;
    }
    const resolvers = waiting;
    waiting = [];
    for (const resolve of resolvers) resolve(message);
  });
  worker.on('error', (error) => {
    console.error(`perch: the WAL checkpointer stopped: ${error.message}`);
  });
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      resolve();
    });
  });
  return {
    next: () => new Promise((resolve) => waiting.push(resolve)),
    async stop() {
      // Held again while it closes: a process with nothing else left to do must wait for it
      // rather than end (with code 0) in the middle of its closing.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
