import type { QueryResult, SqliteDatabase } from 'kysely';

/**
 * Kysely runs every query through its executor: a connection provider, the connection's mutex,
 * plugin hooks and a chain of promises around a statement that better-sqlite3 answers
 * synchronously. Timed alone on a kept statement, that path took 5.9 µs a query against 4.4 run
 * directly, and left about 4 kB of garbage a query against 0.6 (seven times the scavenges); a
 * like runs about ten queries. Where the caller already holds the connection, a compiled query
 * runs its kept statement directly instead:
 * - the read-only connection, which never holds a transaction (lendStatements);
 * - a write transaction of the group commit or of a durable consumer, while it is open
 *   (withStatementsLent): it holds the writer's connection, so no other query runs on it meanwhile.
 * Any other query (the writer outside a transaction, PostgreSQL) goes through Kysely.
 */
const lent = new WeakMap<object, () => SqliteDatabase | undefined>();
const forTransactions = new WeakMap<object, SqliteDatabase>();

/** Queries on `db` may run `statements()` directly (undefined: not open yet, ask Kysely). */
export function lendStatements(db: object, statements: () => SqliteDatabase | undefined): void {
  lent.set(db, statements);
}

/** The writer's statements, which its transactions may run directly (see withStatementsLent). */
export function lendStatementsToTransactions(db: object, statements: SqliteDatabase): void {
  forTransactions.set(db, statements);
}

/**
 * While `trx`, a transaction `db` began, is open, its queries may run the writer's statements
 * directly; the function returned takes them back, which must happen as the transaction ends.
 */
function lendToTransaction(db: object, trx: object): () => void {
  const statements = forTransactions.get(db);
  if (!statements) return () => undefined;
  lent.set(trx, () => statements);
  return () => {
    lent.delete(trx);
  };
}

/** Runs `work`, in `trx` (a transaction `db` began), with the writer's statements lent to it. */
export async function withStatementsLent<T>(
  db: object,
  trx: object,
  work: () => Promise<T>,
): Promise<T> {
  const giveBack = lendToTransaction(db, trx);
  try {
    return await work();
  } finally {
    giveBack();
  }
}

/** `sql` run on `db`'s statements directly, or undefined where it must go through Kysely. */
export function runDirectly<Row>(
  db: object,
  sql: string,
  parameters: readonly unknown[],
): QueryResult<Row> | undefined {
  const statements = lent.get(db)?.();
  if (!statements) return undefined;
  const statement = statements.prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters) as Row[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
}
