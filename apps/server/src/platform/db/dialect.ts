import { PostgresAdapter, sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';

/**
 * Every difference between SQLite and PostgreSQL that code above the database must know about
 * lives here, so that repositories and services read the same on both.
 */

// Any Kysely instance or transaction, whatever its tables.
type AnyDb = QueryExecutorProvider;

export function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** SQLite answers 0/1 for EXISTS, PostgreSQL true/false. */
export const sqlBoolean = (value: unknown): boolean =>
  value === true || value === 1 || value === '1';

/** True when the database refused a row because a unique or primary key already holds it. */
export function isUniqueViolation(error: unknown): boolean {
  const code = errorCode(error);
  // better-sqlite3 reports SQLite's extended codes; PostgreSQL reports SQLSTATE 23505.
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === '23505'
  );
}

/** True when a row refers to one that is gone (deleted meanwhile). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/**
 * True when PostgreSQL gave up on a row lock: NOWAIT found it taken (55P03), or the transaction was
 * chosen to break a deadlock (40P01) or could not be serialised (40001). The whole transaction
 * may be tried again. SQLite runs write transactions one at a time and never answers these.
 */
export function isLockConflict(error: unknown): boolean {
  const code = errorCode(error);
  return code === '55P03' || code === '40P01' || code === '40001';
}

// Socket failures, and PostgreSQL's connection-exception class (08) and operator intervention
// (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now).
const CONNECTION_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);
const CONNECTION_MESSAGE =
  /connection terminated|terminating connection|connection (is )?closed|client has encountered a connection error|timeout exceeded when trying to connect|server closed the connection/i;

/**
 * True when the query failed because the connection to the database did (a restart, a failover, a
 * proxy dropping it), not because of the query: worth a 503 and, for a read, another try.
 */
export function isConnectionLost(error: unknown): boolean {
  const code = errorCode(error);
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || /^(08|57P0[123])/.test(code))) {
    return true;
  }
  return error instanceof Error && CONNECTION_MESSAGE.test(error.message);
}

function errorCode(error: unknown): unknown {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return error.code;
}

/**
 * PostgreSQL cannot store NUL in text while SQLite can; input holding one is refused at the door
 * so both answer the same. Walks without recursion: a deeply nested body must not overflow the stack.
 */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (next.includes('\u0000')) return true;
    } else if (next !== null && typeof next === 'object') {
      // One at a time: spreading a huge array into push() would overflow the stack too.
      for (const [key, item] of Object.entries(next)) pending.push(key, item);
    }
  }
  return false;
}

/** Namespaces of our own for PostgreSQL advisory locks. */
export const AdvisoryLockSpace = {
  media: 0x6d656469, // "medi"
  // 0x6f757462 ("outb") is the outbox's, taken by its commit trigger (migration 0018).
} as const;

/**
 * Takes a transaction-scoped lock shared between every process on the database, until the
 * transaction ends. SQLite needs nothing: its write transactions already run one at a time.
 */
export async function lockForTransaction(
  db: AnyDb,
  space: number,
  key: string,
  mode: 'shared' | 'exclusive' = 'exclusive',
): Promise<void> {
  if (!isPostgres(db)) return;
  const query =
    mode === 'shared'
      ? sql`select pg_advisory_xact_lock_shared(${sql.lit(space)}, hashtext(${key}))`
      : sql`select pg_advisory_xact_lock(${sql.lit(space)}, hashtext(${key}))`;
  await query.execute(db);
}

/**
 * Runs now the deferred triggers (`constraints`, PostgreSQL constraint triggers that otherwise run
 * at commit) of what this transaction has changed so far, so that it can read what they write.
 * SQLite's triggers all run as rows change.
 */
export async function runDeferredTriggers(
  db: AnyDb,
  constraints: readonly string[],
): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`set constraints ${sql.join(constraints.map((name) => sql.id(name)))} immediate`.execute(
    db,
  );
}

/**
 * A list of ids as one query parameter, so that a statement's text stays the same whatever the
 * list's length (see compiledQuery): pass idListValue(db, ids) where idList(db, param) stands.
 */
export function idList(db: AnyDb, param: unknown): RawBuilder<string> {
  return isPostgres(db)
    ? sql<string>`(select unnest(cast(${param} as text[])))`
    : sql<string>`(select value from json_each(${param}))`;
}

export function idListValue(db: AnyDb, ids: readonly (string | number)[]): unknown {
  return isPostgres(db) ? ids : JSON.stringify(ids);
}

/**
 * The ids a subquery lists, joined by commas into one value in the subquery's order (null when
 * it lists none): a list read as one row instead of a row per id, which better-sqlite3 turns into
 * a JavaScript array each (about 0.4 µs an id). SQLite's group_concat reads a subquery with
 * ORDER BY and LIMIT in its order (it stays a co-routine); PostgreSQL is told the order.
 */
export function joinedIds(db: AnyDb, column: RawBuilder<string>): RawBuilder<string | null> {
  return isPostgres(db)
    ? sql<string | null>`string_agg(${column}, ',' order by ${column})`
    : sql<string | null>`group_concat(${column}, ',')`;
}

/** The ids joinedIds joined, in order (sorted again should a SQLite build ever not keep it). */
export function splitIds(joined: string | null | undefined): string[] {
  if (!joined) return [];
  const ids = joined.split(',');
  let previous = '';
  for (const id of ids) {
    if (id < previous) return ids.sort();
    previous = id;
  }
  return ids;
}

/**
 * SQLite: the row's rowid, which an index entry already holds and which finds the row without a
 * second index; PostgreSQL: null (its rows are found by primary key). A rowid outlives its row
 * only until another row takes it, so a caller checks the row it finds is the one it meant.
 */
export function rowidOf(db: AnyDb, table: string): RawBuilder<number | null> {
  return isPostgres(db) ? sql<null>`null` : sql<number>`${sql.ref(table)}.rowid`;
}

/** The rowids rows were read with (see rowidOf): all of them on SQLite, null on PostgreSQL. */
export function rowidsOf(rows: readonly { row: number | null }[]): number[] | null {
  const rowids = rows.map((row) => row.row);
  return rowids.every((rowid): rowid is number => rowid !== null) ? rowids : null;
}

/**
 * SQLite: `indexed by index`, written after a table's name (and alias) so that the planner takes
 * that index where another one matches the query as well; PostgreSQL: nothing, its planner weighs
 * the pages each would read.
 */
export function indexedBy(db: AnyDb, index: string): RawBuilder<unknown> {
  return isPostgres(db) ? sql`` : sql`indexed by ${sql.id(index)}`;
}

/**
 * Holds the rows a query reads until the transaction ends, with `lock` (FOR UPDATE OF its table)
 * on PostgreSQL; SQLite needs nothing, its write transactions already run one at a time (and it
 * has no FOR UPDATE).
 */
export function withRowLock<Query>(db: AnyDb, query: Query, lock: (query: Query) => Query): Query {
  return isPostgres(db) ? lock(query) : query;
}
