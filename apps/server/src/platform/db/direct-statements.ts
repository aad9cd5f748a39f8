import type { Statement } from 'better-sqlite3';
import type { QueryResult } from 'kysely';

/** The statements a connection keeps prepared (see withStatementCache). */
export interface KeptStatements {
  prepare(sql: string): Statement;
}

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
const lent = new WeakMap<object, () => KeptStatements | undefined>();
const forTransactions = new WeakMap<object, KeptStatements>();

/** Queries on `db` may run `statements()` directly (undefined: not open yet, ask Kysely). */
export function lendStatements(db: object, statements: () => KeptStatements | undefined): void {
  lent.set(db, statements);
}

/** The writer's statements, which its transactions may run directly (see withStatementsLent). */
export function lendStatementsToTransactions(db: object, statements: KeptStatements): void {
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
  if (statement.reader) return { rows: readRows(statement, parameters) as Row[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
}

/** The column names of each statement read directly, in the order its rows list its values. */
const columnNames = new WeakMap<Statement, readonly string[]>();

function namesOf(statement: Statement): readonly string[] {
  const names = statement.columns().map((column) => column.name);
  columnNames.set(statement, names);
  return names;
}

/**
 * The statement's rows as objects, as Kysely reads them. better-sqlite3 builds such an object in
 * C++ one property at a time; reading the rows as arrays (or, with one column, as its values) and
 * building the objects here costs about half as much, timed alone: 23 members' rows of 12 columns
 * in 40 µs against 67, 90 ids in 20 µs against 40. V8 gives every row of a statement the same
 * shape. The statement is shared with Kysely's path, so its mode is set only for this call, which
 * runs to its end before any other query can use the statement (the app never streams rows). Its
 * column names are kept: a `select *` of two columns or more that gained columns since (another
 * process migrated) reads them again.
 */
function readRows(statement: Statement, parameters: readonly unknown[]): object[] {
  const kept = columnNames.get(statement) ?? namesOf(statement);
  const [only] = kept;
  if (kept.length === 1 && only !== undefined) {
    const rows: object[] = [];
    for (const value of readAs(statement, 'pluck', parameters)) {
      const row: Record<string, unknown> = {};
      row[only] = value;
      rows.push(row);
    }
    return rows;
  }
  const values = readAs(statement, 'raw', parameters) as unknown[][];
  const names = values[0] && values[0].length !== kept.length ? namesOf(statement) : kept;
  const rows: object[] = [];
  for (const rowValues of values) {
    const row: Record<string, unknown> = {};
    let column = 0;
    for (const name of names) row[name] = rowValues[column++];
    rows.push(row);
  }
  return rows;
}

function readAs(statement: Statement, mode: 'pluck' | 'raw', parameters: readonly unknown[]) {
  statement[mode](true);
  try {
    return statement.all(parameters);
  } finally {
    statement[mode](false);
  }
}
