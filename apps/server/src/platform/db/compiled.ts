import type { CompiledQuery, Compilable, Kysely, QueryResult } from 'kysely';
import { isPostgres } from './dialect';
import { runDirectly } from './direct-statements';
import type { Database } from './schema';

type Db = Kysely<Database>;

const SLOT = Symbol('query parameter');
interface Slot {
  readonly [SLOT]: number;
}
const isSlot = (value: unknown): value is Slot =>
  typeof value === 'object' && value !== null && SLOT in value;

/** Builds and compiles `build` once per dialect; each call fills in its arguments. */
function compiledOnce<Args extends unknown[], Row>(
  build: (db: Db, ...args: Args) => Compilable<Row>,
): (db: Db, ...args: Args) => Promise<QueryResult<Row>> {
  const byDialect = new Map<'sqlite' | 'postgres', CompiledQuery<Row>>();
  return async (db, ...args) => {
    const dialect = isPostgres(db) ? 'postgres' : 'sqlite';
    let compiled = byDialect.get(dialect);
    if (!compiled) {
      const slots = args.map((_, index): Slot => ({ [SLOT]: index })) as Args;
      compiled = build(db, ...slots).compile();
      byDialect.set(dialect, compiled);
    }
    const parameters = compiled.parameters.map((value) =>
      isSlot(value) ? args[value[SLOT]] : value,
    );
    return executeCompiled(db, compiled, parameters);
  };
}

/**
 * Runs `query` with `parameters`: directly on its connection's kept statement where the caller
 * holds that connection (see direct-statements.ts), otherwise through Kysely.
 */
export async function executeCompiled<Row>(
  db: Db,
  query: CompiledQuery<Row>,
  parameters: readonly unknown[] = query.parameters,
): Promise<QueryResult<Row>> {
  return (
    runDirectly<Row>(db, query.sql, parameters) ?? db.executeQuery<Row>({ ...query, parameters })
  );
}

/**
 * A query whose shape never changes, built and compiled by Kysely once per dialect instead of on
 * every call (building and compiling a feed query took longer than SQLite took to run it). The
 * builder receives stand-ins for its arguments: it must put them only where values go, never
 * branch on them or spread them into lists (pass a list as one value; see dialect.inIdList).
 */
export function compiledQuery<Args extends unknown[], Row>(
  build: (db: Db, ...args: Args) => Compilable<Row>,
): (db: Db, ...args: Args) => Promise<Row[]> {
  const run = compiledOnce(build);
  return async (db, ...args) => (await run(db, ...args)).rows;
}

/**
 * An insert, update or delete compiled once like compiledQuery (on the write path, building and
 * compiling its statements cost about a sixth of a like's CPU); answers how many rows it changed.
 */
export function compiledCommand<Args extends unknown[]>(
  build: (db: Db, ...args: Args) => Compilable,
): (db: Db, ...args: Args) => Promise<bigint> {
  const run = compiledOnce(build);
  return async (db, ...args) => (await run(db, ...args)).numAffectedRows ?? 0n;
}

/**
 * A query whose text depends on a few flags (paged or not, leaving rows out or not, which index
 * finds the rows): one compiledQuery per combination, built on first use. Pick one with
 * `shapes(flags)`.
 */
export function compiledShapes<
  // Each field a boolean or a string: they name the shape.
  Flags extends object,
  Args extends unknown[],
  Row,
>(
  build: (flags: Flags, db: Db, ...args: Args) => Compilable<Row>,
): (flags: Flags) => (db: Db, ...args: Args) => Promise<Row[]> {
  const byShape = new Map<string, (db: Db, ...args: Args) => Promise<Row[]>>();
  return (flags) => {
    const key = Object.entries(flags)
      .map(([name, value]) => `${name}:${String(value)}`)
      .join(',');
    let query = byShape.get(key);
    if (!query) {
      query = compiledQuery((db: Db, ...args: Args) => build(flags, db, ...args));
      byShape.set(key, query);
    }
    return query;
  };
}
