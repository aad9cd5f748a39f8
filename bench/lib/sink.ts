import type SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';

export type PgType = 'text' | 'int4' | 'int8';
export type Column = readonly [name: string, pgType: PgType];
export type Value = string | number | null;

/** Buffers rows of one table and writes them in large batches. */
export interface TableWriter {
  /** Adds a row; answers true when a batch is full and flush() should be awaited. */
  add(...values: Value[]): boolean;
  flush(): Promise<void>;
  /** Writes what is left and waits for every batch. */
  finish(): Promise<number>;
}

export interface Sink {
  writer(table: string, columns: readonly Column[]): TableWriter;
}

const SQLITE_ROWS_PER_STATEMENT = 500;

/** Multi-row prepared INSERTs on better-sqlite3 (synchronous: flush() resolves at once). */
export function sqliteSink(db: SqliteDatabase.Database): Sink {
  return {
    writer(table, columns) {
      const width = columns.length;
      const rowsPerStatement = Math.min(SQLITE_ROWS_PER_STATEMENT, Math.floor(30_000 / width));
      const statementFor = (rows: number) => {
        const row = `(${new Array<string>(width).fill('?').join(',')})`;
        return db.prepare(
          `INSERT INTO ${table} (${columns.map(([name]) => name).join(',')}) VALUES ${new Array<string>(rows).fill(row).join(',')}`,
        );
      };
      const full = statementFor(rowsPerStatement);
      const buffer = new Array<Value>(rowsPerStatement * width);
      let filled = 0;
      let total = 0;
      const flush = () => {
        if (filled === buffer.length) full.run(buffer);
        else if (filled > 0) statementFor(filled / width).run(buffer.slice(0, filled));
        total += filled / width;
        filled = 0;
        return Promise.resolve();
      };
      return {
        add(...values) {
          for (const value of values) buffer[filled++] = value;
          return filled === buffer.length;
        },
        flush,
        async finish() {
          await flush();
          return total;
        },
      };
    },
  };
}

const PG_ROWS_PER_BATCH = 20_000;

/**
 * Batches of `INSERT ... SELECT * FROM unnest($1::text[], ...)` on one connection; the next batch
 * is generated while the previous one is in flight.
 */
export function postgresSink(client: pg.Client): Sink {
  return {
    writer(table, columns) {
      const sql = `INSERT INTO ${table} (${columns.map(([name]) => name).join(',')}) SELECT * FROM unnest(${columns
        .map(([, type], i) => `$${i + 1}::${type}[]`)
        .join(',')})`;
      const fresh = () => columns.map(() => [] as Value[]);
      let arrays = fresh();
      let rows = 0;
      let total = 0;
      let pending: Promise<unknown> = Promise.resolve();
      const flush = async () => {
        if (rows === 0) return;
        const batch = arrays;
        total += rows;
        arrays = fresh();
        rows = 0;
        await pending;
        pending = client.query(sql, batch);
        // Awaited by the next flush or by finish(); keep an early failure from going unhandled.
        pending.catch(() => undefined);
      };
      return {
        add(...values) {
          for (let i = 0; i < values.length; i++) arrays[i]?.push(values[i] ?? null);
          rows++;
          return rows >= PG_ROWS_PER_BATCH;
        },
        flush,
        async finish() {
          await flush();
          await pending;
          return total;
        },
      };
    },
  };
}
