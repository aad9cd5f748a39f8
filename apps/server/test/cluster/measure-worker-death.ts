/**
 * Counts what becomes of connections opened while workers die, for one scheduling policy:
 *
 *   npx tsx apps/server/test/cluster/measure-worker-death.ts [rr|none] [kills] [concurrency]
 *
 * The policy is given to the server as NODE_CLUSTER_SCHED_POLICY, which Node's cluster module
 * reads when it starts; 'default' leaves the server to choose. See
 * docs/decisions/0030-worker-scheduling.md.
 */
import { freePort } from '../ports';
import { removeDir, startServer, tempDir } from './cluster-helpers';
import { cpuSeconds, keepAliveLoad, listeningWorkers, loadWhileKilling } from './worker-death';

const [policy = 'default', kills = '5', concurrency = '32'] = process.argv.slice(2);
const dataDir = tempDir('perch-worker-death-');
const server = await startServer({
  name: `workers (${policy})`,
  env: {
    WORKERS: '2',
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED: 'none',
    // The supervisor's lines are read to know which workers listen; request logs would crowd them.
    LOG_LEVEL: 'warn',
    WEB_DIR: '',
    MEDIA_SWEEP_MINUTES: '0',
    ...(policy === 'default' ? {} : { NODE_CLUSTER_SCHED_POLICY: policy }),
  },
  readyTimeoutMs: 60_000,
});
try {
  const port = Number(new URL(server.base).port);
  const started = Date.now();
  const outcome = await loadWhileKilling({
    port,
    primaryPid: server.pid,
    output: server.output,
    workers: 2,
    kills: Number(kills),
    concurrency: Number(concurrency),
    hangMs: 10_000,
  });
  console.log(
    JSON.stringify({ policy, seconds: Math.round((Date.now() - started) / 1000), ...outcome }),
  );
  // How evenly the workers share kept-alive connections, by the CPU time each used meanwhile.
  const workers = listeningWorkers(server.pid, server.output());
  const before = workers.map(cpuSeconds);
  const answered = await keepAliveLoad(port, Number(concurrency), 10_000);
  const used = workers.map((pid, index) => +(cpuSeconds(pid) - (before[index] ?? 0)).toFixed(2));
  console.log(
    JSON.stringify({ policy, keptAlive: { perSecond: answered / 10, cpuSeconds: used } }),
  );
} finally {
  await server.stop();
  removeDir(dataDir);
}
