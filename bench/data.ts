/**
 * Builds a realistic Perch instance for benchmarks directly in the database.
 *
 *   npm run bench:data -- --posts 1000000 [--seed S] [--data-dir DIR] [--now 2026-01-01]
 *
 * SQLite by default (DATA_DIR defaults to bench-data/<posts>); PostgreSQL when DATABASE_URL is set
 * (its public schema is dropped and recreated). Tables come from the server's own migrations.
 * See bench/README.md for the shape of the data.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { closeDatabase, createDatabase } from '../apps/server/src/platform/db/database';
import { DEFAULT_HOME_PULL_FOLLOWERS } from '../apps/server/src/app/config';
import { migrateToLatest } from '../apps/server/src/platform/db/migrate';
import type { Database } from '../apps/server/src/platform/db/schema';
import { verifyPassword } from '../apps/server/src/lib/password';
import { loadTables, type RunPhase } from './generate/load';
import { generateModel } from './generate/model';
import { prepareTarget } from './generate/prepare';
import { describeDistributions } from './generate/summary';
import { log as printLine } from './lib/log';
import { DAY } from './generate/time';
import {
  BENCH_PASSWORD,
  BENCH_PASSWORD_HASH,
  checkCounters,
  countRows,
  DEFAULT_SEED,
  formatCount,
  GENERATOR_VERSION,
  metaFileOf,
  openRunner,
  parseCount,
  resolveInstance,
  secretFileOf,
  type Instance,
  type InstanceMeta,
} from './lib/instance';

export interface BuildOptions {
  /** End of the generated year (ms); defaults to the start of the current UTC day. */
  now?: number;
  log?: (line: string) => void;
}

function timer() {
  const start = performance.now();
  return () => (performance.now() - start) / 1000;
}

/** Builds the instance from scratch and returns its description (also written to bench-meta.json). */
export async function buildInstance(
  instance: Instance,
  options: BuildOptions = {},
): Promise<InstanceMeta> {
  const log = options.log ?? printLine;
  const now = options.now ?? Math.floor(Date.now() / DAY) * DAY;
  const P = instance.posts;
  const M = Math.max(3, Math.floor(P / 100));
  const seed = instance.seed;
  const total = timer();
  const phases: [string, number, number][] = [];
  const phase: RunPhase = async (name, run, count = () => 0) => {
    const elapsed = timer();
    const result = await run();
    const seconds = elapsed();
    const rows = count(result);
    phases.push([name, rows, seconds]);
    const shown = rows > 0 ? `${formatCount(rows)} rows` : '';
    log(`  ${name.padEnd(22)} ${shown.padStart(17)}  ${seconds.toFixed(1).padStart(6)} s`);
    return result;
  };

  if (!(await verifyPassword(BENCH_PASSWORD, BENCH_PASSWORD_HASH))) {
    throw new Error('BENCH_PASSWORD_HASH does not match BENCH_PASSWORD');
  }
  log(
    `Building ${instance.kind} instance: ${formatCount(P)} posts, ${formatCount(M)} members, seed "${seed}" → ${
      instance.kind === 'sqlite' ? instance.sqliteFile : (instance.databaseUrl ?? '')
    }`,
  );
  mkdirSync(path.join(instance.dataDir, 'media'), { recursive: true });
  rmSync(metaFileOf(instance), { force: true });
  const secretFile = secretFileOf(instance);
  mkdirSync(path.dirname(secretFile), { recursive: true, mode: 0o700 });
  writeFileSync(secretFile, randomBytes(48).toString('base64url'), { mode: 0o600 });

  const target = await phase('schema', () => prepareTarget(instance));
  const model = await phase('model (in memory)', async () => generateModel(seed, P, M, now));

  const load = timer();
  await loadTables(target, phase, model, seed, now);
  const loadSeconds = load();

  await phase(`indexes (${target.indexes.length})`, () => target.buildIndexes());
  await phase(instance.kind === 'sqlite' ? 'analyze' : 'vacuum analyze', () => target.analyze());
  await target.close();

  const runner = await openRunner(
    instance.kind === 'sqlite'
      ? { kind: 'sqlite', file: instance.sqliteFile, readonly: true }
      : { kind: 'postgres', url: instance.databaseUrl ?? '' },
  );
  const verification = await phase('verify counters', async () => ({
    rows: await countRows(runner),
    mismatches: await checkCounters(runner),
  }));
  await runner.close();
  const bad = Object.entries(verification.mismatches).filter(([, n]) => n > 0);
  if (bad.length > 0) {
    throw new Error(`counters differ from rows: ${bad.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }

  const distributions = describeDistributions(model);
  const totalSeconds = total();
  for (const line of distributions) log(line);
  log(
    `  rows: ${Object.entries(verification.rows)
      .map(([table, n]) => `${table} ${formatCount(n)}`)
      .join(', ')}`,
  );
  log(
    `  counters verified (${Object.keys(verification.mismatches).join(', ')}): all equal the rows`,
  );
  log(`  load ${loadSeconds.toFixed(1)} s, total ${totalSeconds.toFixed(1)} s`);

  const meta: InstanceMeta = {
    generatorVersion: GENERATOR_VERSION,
    kind: instance.kind,
    posts: P,
    seed,
    members: M,
    now,
    databaseUrl: instance.databaseUrl,
    rows: verification.rows,
    loadSeconds: totalSeconds,
    builtAt: new Date().toISOString(),
  };
  writeFileSync(metaFileOf(instance), `${JSON.stringify({ ...meta, phases }, null, 2)}\n`);
  return meta;
}

/**
 * Members followed by at least the server's default HOME_PULL_FOLLOWERS are pulled into Home
 * rather than written to timelines (see modules/timelines). A live instance marks each on their
 * first post past that count; the generated one starts as such an instance would be after a while,
 * every such member marked, so Home is read as it would be day to day. A run with another
 * HOME_PULL_FOLLOWERS marks the others on their first post, in the run's copy only.
 */
async function markPulledAuthors(db: Kysely<Database>): Promise<void> {
  await sql`
    INSERT INTO pulled_authors (user_id, since)
    SELECT id, '' FROM users WHERE followers_count >= ${DEFAULT_HOME_PULL_FOLLOWERS}
    ON CONFLICT (user_id) DO NOTHING`.execute(db);
}

/**
 * Applies migrations added since the instance was built (then refreshes the planner's statistics),
 * so the benchmark measures the schema the server would run with. Answers how many were applied.
 */
export async function migrateInstance(instance: Instance): Promise<number> {
  const handle = createDatabase(
    instance.kind === 'sqlite'
      ? { kind: 'sqlite', filename: instance.sqliteFile }
      : { kind: 'postgres', url: instance.databaseUrl ?? '' },
  );
  try {
    const applied = async () =>
      (
        await sql<{ n: number | string }>`SELECT count(*) AS n FROM kysely_migration`.execute(
          handle.db,
        )
      ).rows[0]?.n;
    const before = Number(await applied());
    await migrateToLatest(handle.db as Kysely<unknown>);
    await markPulledAuthors(handle.db);
    const count = Number(await applied()) - before;
    if (count > 0) await sql`ANALYZE`.execute(handle.db);
    return count;
  } finally {
    await closeDatabase(handle);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      posts: { type: 'string', default: '10000' },
      seed: { type: 'string', default: DEFAULT_SEED },
      'data-dir': { type: 'string' },
      now: { type: 'string' },
    },
  });
  const instance = resolveInstance({
    posts: parseCount(values.posts),
    seed: values.seed,
    dataDir: values['data-dir'],
    databaseUrl: process.env.DATABASE_URL ?? null,
  });
  const now = values.now === undefined ? undefined : Date.parse(values.now);
  if (now !== undefined && Number.isNaN(now)) throw new Error(`--now is not a date: ${values.now}`);
  await buildInstance(instance, { now });
  console.log(
    `Instance ready. DATA_DIR=${instance.dataDir}${instance.databaseUrl ? ` DATABASE_URL=${instance.databaseUrl}` : ''}; every member (member_000000 …) logs in with the password "${BENCH_PASSWORD}".`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
}
