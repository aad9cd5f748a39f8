import cluster from 'node:cluster';
import v8 from 'node:v8';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp, prepareDatabase } from './app/app';
import { ConfigError, loadConfig, type AppConfig } from './app/config';
import { closeDatabase, createDatabase, targetFromConfig } from './platform/db/database';
import { resolveJwtSecret } from './app/plugins/auth.plugin';

const here = path.dirname(fileURLToPath(import.meta.url));
// Both src/server.ts and dist/server.js sit two levels below apps/.
const defaultWebDir = path.resolve(here, '../../web/dist');

function readConfig(): AppConfig {
  try {
    return loadConfig(process.env, { webDir: defaultWebDir });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`perch: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

/** Serves requests in this process until SIGINT or SIGTERM, then closes gracefully. */
async function serve(config: AppConfig): Promise<void> {
  const app = await buildApp(config);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => {
    shutdown('SIGINT');
  });
  process.on('SIGTERM', () => {
    shutdown('SIGTERM');
  });
  await app.listen({ port: config.port, host: config.host });
}

/**
 * Workers accept connections from the one listening socket themselves (SCHED_NONE) rather than
 * being handed them by this process (round-robin, Node's default). Handed over, the connection on
 * its way to a worker killed under load stayed open here unanswered for ever (one per kill);
 * accepted by the worker, it is reset with the worker's death, and those still waiting in the
 * socket's queue go to the others. NODE_CLUSTER_SCHED_POLICY, if set,
 * still chooses. See docs/decisions/0030-worker-scheduling.md.
 */
function shareListeningSocket(): void {
  if (process.env.NODE_CLUSTER_SCHED_POLICY) return;
  cluster.schedulingPolicy = cluster.SCHED_NONE;
}

/**
 * With WORKERS > 1 this process prepares the database and the token secret once, then runs that
 * many server processes sharing the port (SQLite in WAL mode serves readers from all of them;
 * writes take turns). A worker that dies is replaced. Scheduled work runs once across the workers
 * (and across instances) through the job lock of src/platform/infra, not by worker.
 */
async function supervise(config: AppConfig): Promise<void> {
  const database = createDatabase(targetFromConfig(config));
  try {
    await prepareDatabase(database, config);
  } finally {
    await closeDatabase(database);
  }
  resolveJwtSecret(config);
  shareListeningSocket();

  let stopping = false;
  const fork = (index: number) => {
    const worker = cluster.fork();
    worker.on('listening', () => {
      console.log(`perch: worker ${index} listening (pid ${worker.process.pid ?? '?'})`);
    });
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      console.error(
        `perch: worker ${index} exited (code ${code}, signal ${signal}); starting another`,
      );
      fork(index);
    });
  };
  for (let index = 0; index < config.workers; index += 1) fork(index);

  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    let running = workers.length;
    if (running === 0) process.exit(0);
    for (const worker of workers) {
      worker?.once('exit', () => {
        running -= 1;
        if (running === 0) process.exit(0);
      });
      worker?.process.kill('SIGTERM');
    }
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/**
 * Left to itself, V8 let the heap grow to three or four times what a full collection kept before
 * collecting again (a server keeping 45 MB peaked at 360–440 MB of memory under load, 247–266 MB
 * at 15%); a fixed growth factor holds it near what is kept. V8 reads the factor at every
 * collection, so it can be set once the process runs. The young generation's size
 * (--max-semi-space-size) is read only when the process starts: `npm start` passes it (see
 * package.json's config.nodeFlags), and workers inherit it.
 */
function limitHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}

async function main(): Promise<void> {
  const config = readConfig();
  limitHeapGrowth(config.heapGrowthPercent);
  if (config.workers > 1 && cluster.isPrimary) {
    await supervise(config);
    return;
  }
  await serve(config);
}

main().catch((error: unknown) => {
  const reason = error instanceof Error ? error.message : String(error);
  console.error(`perch: could not start: ${reason}`);
  process.exit(1);
});
