import SqliteDatabase from 'better-sqlite3';
import { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { PerchSqliteDialect } from './sqlite-dialect';

interface Numbers {
  numbers: { n: number };
}

let db: Kysely<Numbers> | undefined;
afterEach(async () => {
  await db?.destroy();
  db = undefined;
});

function numbersUpTo(count: number): Kysely<Numbers> {
  const sqlite = new SqliteDatabase(':memory:');
  sqlite.exec('create table numbers (n integer primary key)');
  const insert = sqlite.prepare('insert into numbers (n) values (?)');
  for (let n = 1; n <= count; n++) insert.run(n);
  db = new Kysely<Numbers>({ dialect: new PerchSqliteDialect({ database: sqlite }) });
  return db;
}

describe('PerchSqliteDialect', () => {
  it('binds a limit SQLite does not plan by', () => {
    const numbers = numbersUpTo(3);
    const query = numbers.selectFrom('numbers').select('n').orderBy('n').limit(2).compile();
    expect(query.sql).toBe('select "n" from "numbers" order by "n" limit cast(? as integer)');
    expect(query.parameters).toEqual([2]);
  });

  it('limits and pages as a plain limit does', async () => {
    const numbers = numbersUpTo(10);
    const page = (limit: number, offset: number) =>
      numbers.selectFrom('numbers').select('n').orderBy('n', 'desc').limit(limit).offset(offset);
    expect((await page(3, 0).execute()).map((row) => row.n)).toEqual([10, 9, 8]);
    expect((await page(3, 8).execute()).map((row) => row.n)).toEqual([2, 1]);
    expect(await page(0, 0).execute()).toEqual([]);
  });
});
