import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { closeDatabase, createDatabase } from '../src/platform/db/database';
import { testDatabaseKind } from './test-database';

const sqliteOnly = describe.runIf(testDatabaseKind() === 'sqlite');

let dataDir = '';
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = '';
});

/** A file analysed with SQLite's samples: one key holds most rows, as a popular member would. */
function analysedFile(): string {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'perch-stats-'));
  const filename = path.join(dataDir, 'perch.db');
  const sqlite = new SqliteDatabase(filename);
  sqlite.exec('create table marks (owner text not null, at integer not null)');
  sqlite.exec('create index marks_owner_idx on marks (owner, at)');
  const insert = sqlite.prepare('insert into marks (owner, at) values (?, ?)');
  sqlite.transaction(() => {
    for (let i = 0; i < 2000; i++) insert.run(i % 4 === 0 ? `owner_${i}` : 'popular', i);
  })();
  sqlite.exec('analyze');
  sqlite.close();
  return filename;
}

const countRows = (filename: string, table: string): number => {
  const sqlite = new SqliteDatabase(filename, { readonly: true });
  try {
    return (sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  } finally {
    sqlite.close();
  }
};

sqliteOnly('query statistics on SQLite', () => {
  it('keeps the table statistics and drops the sampled values when the file is opened', async () => {
    const filename = analysedFile();
    expect(countRows(filename, 'sqlite_stat4')).toBeGreaterThan(0);
    const stat1 = countRows(filename, 'sqlite_stat1');
    expect(stat1).toBeGreaterThan(0);

    const handle = createDatabase({ kind: 'sqlite', filename });
    try {
      // The connections plan by the averages left; a read answers as before.
      const { rows } = await sql<{
        n: number;
      }>`select count(*) as n from marks where owner = ${'popular'}`.execute(handle.reads);
      expect(rows[0]?.n).toBe(1500);
    } finally {
      await closeDatabase(handle);
    }
    expect(countRows(filename, 'sqlite_stat4')).toBe(0);
    expect(countRows(filename, 'sqlite_stat1')).toBe(stat1);
  });

  it('opens a file never analysed without creating statistics', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'perch-stats-'));
    const filename = path.join(dataDir, 'perch.db');
    const handle = createDatabase({ kind: 'sqlite', filename });
    await closeDatabase(handle);
    const sqlite = new SqliteDatabase(filename, { readonly: true });
    try {
      const tables = sqlite
        .prepare("select name from sqlite_schema where name like 'sqlite_stat%'")
        .all();
      expect(tables).toEqual([]);
    } finally {
      sqlite.close();
    }
  });
});
