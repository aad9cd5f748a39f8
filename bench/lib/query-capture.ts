/**
 * The queries a piece of work sends, caught on the database drivers themselves (better-sqlite3's
 * statements, pg's client), and their plans: the benchmark sees what reaches the database without
 * knowing how the server composes it.
 */
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseTarget } from '../../apps/server/src/platform/db/database';

export interface CapturedQuery {
  sql: string;
  /** The arguments as the driver was given them. */
  args: unknown[];
}

export interface QueryPlan {
  name: string;
  sql: string;
  plan: string[];
}

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** Replaces `names` on `prototype` with versions that first call `record`; returns the undo. */
function wrap(
  prototype: Record<string, unknown>,
  names: string[],
  record: (self: unknown, args: unknown[]) => void,
): () => void {
  const originals = names.map((name) => [name, prototype[name] as Method] as const);
  for (const [name, original] of originals) {
    prototype[name] = function (this: unknown, ...args: unknown[]) {
      record(this, args);
      return original.apply(this, args);
    };
  }
  return () => {
    for (const [name, original] of originals) prototype[name] = original;
  };
}

function sqliteStatementPrototype(): Record<string, unknown> {
  const scratch = new SqliteDatabase(':memory:');
  try {
    return Object.getPrototypeOf(scratch.prepare('SELECT 1')) as Record<string, unknown>;
  } finally {
    scratch.close();
  }
}

const isRead = (sql: string) => /^\s*(select|with)\b/i.test(sql);

/** Runs `work` and returns the reads it sent to either driver, in order. */
export async function captureQueries(work: () => Promise<unknown>): Promise<CapturedQuery[]> {
  const captured: CapturedQuery[] = [];
  const undoSqlite = wrap(sqliteStatementPrototype(), ['all', 'get', 'iterate'], (self, args) => {
    const sql = (self as { source?: string }).source ?? '';
    if (isRead(sql)) captured.push({ sql, args });
  });
  const undoPg = wrap(
    pg.Client.prototype as unknown as Record<string, unknown>,
    ['query'],
    (_, args) => {
      const [first, second] = args;
      const config = first as { text?: string; values?: unknown[] } | string;
      const sql = typeof config === 'string' ? config : (config.text ?? '');
      const values = typeof config === 'string' ? second : config.values;
      if (isRead(sql)) captured.push({ sql, args: Array.isArray(values) ? values : [] });
    },
  );
  try {
    await work();
  } finally {
    undoSqlite();
    undoPg();
  }
  return captured;
}

/** SQLite's plan as an indented tree. */
function sqlitePlan(sqlite: SqliteDatabase.Database, query: CapturedQuery): string[] {
  const rows = sqlite.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.args) as {
    id: number;
    parent: number;
    detail: string;
  }[];
  const depth = new Map<number, number>([[0, 0]]);
  return rows.map((row) => {
    const level = (depth.get(row.parent) ?? 0) + 1;
    depth.set(row.id, level);
    return `${'  '.repeat(level - 1)}${row.detail}`;
  });
}

/** The plan of each captured query (SQLite: EXPLAIN QUERY PLAN; PostgreSQL: EXPLAIN ANALYZE). */
export async function explainQueries(
  target: DatabaseTarget,
  name: string,
  queries: CapturedQuery[],
): Promise<QueryPlan[]> {
  if (target.kind === 'sqlite') {
    const sqlite = new SqliteDatabase(target.filename, { readonly: true, fileMustExist: true });
    try {
      return queries.map((query) => ({ name, sql: query.sql, plan: sqlitePlan(sqlite, query) }));
    } finally {
      sqlite.close();
    }
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    const plans: QueryPlan[] = [];
    for (const query of queries) {
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${query.sql}`,
        query.args,
      );
      plans.push({ name, sql: query.sql, plan: rows.map((row) => row['QUERY PLAN']) });
    }
    return plans;
  } finally {
    await client.end();
  }
}
