import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { resolveBrowserExecutable } from './support/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the server under test, e.g. http://127.0.0.1:43123 */
    baseURL: string;
    /** Chromium to drive, or null when none is installed (the browser tests then skip). */
    browserExecutable: string | null;
  }
}

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(webDir, '../..');
const serverEntry = resolve(webDir, '../server/dist/server.js');
const webIndex = join(webDir, 'dist', 'index.html');

const STARTUP_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
const LOG_TAIL_LINES = 80;

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      if (address === null || typeof address === 'string') {
        probe.close();
        reject(new Error('Could not determine a free port.'));
        return;
      }
      probe.close(() => {
        resolvePort(address.port);
      });
    });
  });
}

const sleep = (ms: number) =>
  new Promise<void>((done) => {
    setTimeout(done, ms);
  });

async function waitForHealth(baseURL: string, child: ChildProcess, logs: () => string) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let lastProblem = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `The server exited during start-up (code ${String(child.exitCode)}, signal ${String(child.signalCode)}).\n${logs()}`,
      );
    }
    try {
      const response = await fetch(`${baseURL}/api/health`, { signal: AbortSignal.timeout(2_000) });
      const body = (await response.json().catch(() => null)) as { status?: unknown } | null;
      if (response.ok && body?.status === 'ok') return;
      lastProblem = `GET /api/health answered ${response.status} ${JSON.stringify(body)}`;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    await sleep(200);
  }
  throw new Error(
    `The server did not become healthy within ${STARTUP_TIMEOUT_MS} ms (${lastProblem}).\n${logs()}`,
  );
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => {
    child.once('exit', () => {
      done();
    });
  });
  child.kill('SIGTERM');
  const timedOut = await Promise.race([
    exited.then(() => false),
    sleep(STOP_TIMEOUT_MS).then(() => true),
  ]);
  if (timedOut) {
    child.kill('SIGKILL');
    await exited;
  }
}

export default async function setup(project: TestProject) {
  const browserExecutable = resolveBrowserExecutable();
  project.provide('browserExecutable', browserExecutable);
  project.provide('baseURL', '');
  if (browserExecutable === null) return undefined;

  if (!existsSync(serverEntry) || !existsSync(webIndex)) {
    throw new Error(
      `The browser tests need the built app (${existsSync(serverEntry) ? webIndex : serverEntry} is missing). Run \`npm run build\` at the repository root first.`,
    );
  }

  const dataDir = await mkdtemp(join(tmpdir(), 'perch-e2e-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const logLevel = process.env.PERCH_LOG_LEVEL ?? 'warn';

  const child = spawn(process.execPath, [serverEntry], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      PERCH_LOG_LEVEL: logLevel,
      LOG_LEVEL: logLevel,
      // The link preview test serves its page from this machine.
      LINK_PREVIEW_ALLOW_PRIVATE: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  const tail: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      tail.push(line);
      if (tail.length > LOG_TAIL_LINES) tail.shift();
      if (process.env.E2E_SERVER_LOGS === '1') console.log(`[server] ${line}`);
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const logs = () =>
    tail.length === 0 ? '(no server output)' : `Server output:\n${tail.join('\n')}`;

  try {
    await waitForHealth(baseURL, child, logs);
  } catch (error) {
    await stop(child);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  project.provide('baseURL', baseURL);

  return async () => {
    await stop(child);
    await rm(dataDir, { recursive: true, force: true });
  };
}
