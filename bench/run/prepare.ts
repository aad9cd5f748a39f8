/** An instance made ready for a run: built or reused, migrated, copied; and its server's env. */
import path from 'node:path';
import { buildInstance, migrateInstance } from '../data';
import { ensureBuilds } from '../lib/builds';
import { workingCopy, type RunCopy } from '../lib/copy';
import { isBuilt, readMeta, ROOT, type Instance } from '../lib/instance';
import { log, secondsSince } from '../lib/log';

/** The instance built or reused, migrated, and copied for this run. */
export async function prepareInstance(
  instance: Instance,
  { build, web }: { build: boolean; web: boolean },
) {
  if (isBuilt(instance)) {
    log(
      `Reusing the instance in ${path.relative(ROOT, instance.dataDir)} (built ${readMeta(instance)?.builtAt ?? '?'})`,
    );
  } else {
    await buildInstance(instance);
  }
  const meta = readMeta(instance);
  if (build) ensureBuilds({ web, log });
  let step = performance.now();
  const migrated = await migrateInstance(instance);
  if (migrated > 0) {
    log(
      `Applied ${migrated} migration${migrated === 1 ? '' : 's'} added since the instance was built, then ANALYZE (${secondsSince(step)} s)`,
    );
  }
  step = performance.now();
  const copy = await workingCopy(instance);
  log(`Working copy ready in ${secondsSince(step)} s (${copy.databaseUrl ?? copy.dataDir})`);
  return { meta, copy };
}

/** The environment the Perch server runs with on a working copy. */
export function serverEnv(copy: RunCopy, secret: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SEED: 'none',
    AUTH_RATE_LIMIT: '0',
    DATA_DIR: copy.dataDir,
    DATABASE_URL: copy.databaseUrl ?? '',
    JWT_SECRET: secret,
  };
}
