/**
 * The working copy every run starts from (the instance copied, so runs do not change it) and the
 * sessions the benchmark signs its members in with.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createSigner } from 'fast-jwt';
import pg from 'pg';
import type { DatabaseTarget } from '../../apps/server/src/platform/db/database';
import { openRunner, secretFileOf, type Instance, type SqlRunner } from './instance';

export interface RunCopy {
  dataDir: string;
  databaseUrl: string | null;
  target: DatabaseTarget;
  runner: () => Promise<SqlRunner>;
  /** A connection that may write (the benchmark's sessions), used before the server starts. */
  writer: () => Promise<SqlRunner>;
}

/** A member the benchmark acts as: its index in the instance's members (by id) and its token. */
export interface Member {
  index: number;
  id: string;
  username: string;
  token: string;
}

/** The instance copied afresh to `<dataDir>.<name>` (PostgreSQL: database `<database>_<name>`). */
export async function workingCopy(instance: Instance, name = 'run'): Promise<RunCopy> {
  const dataDir = `${instance.dataDir}.${name}`;
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(path.join(dataDir, 'secrets'), { recursive: true, mode: 0o700 });
  mkdirSync(path.join(dataDir, 'media'), { recursive: true });
  copyFileSync(secretFileOf(instance), secretFileOf({ dataDir }));
  if (instance.kind === 'sqlite') {
    const file = path.join(dataDir, 'perch.db');
    copyFileSync(instance.sqliteFile, file);
    return {
      dataDir,
      databaseUrl: null,
      target: { kind: 'sqlite', filename: file },
      runner: () => openRunner({ kind: 'sqlite', file, readonly: true }),
      writer: () => openRunner({ kind: 'sqlite', file }),
    };
  }
  const source = new URL(instance.databaseUrl ?? '');
  const database = decodeURIComponent(source.pathname.slice(1));
  const runName = `${database}_${name}`;
  const admin = new URL(source);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${runName}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${runName}" TEMPLATE "${database}"`);
  } finally {
    await client.end();
  }
  const run = new URL(source);
  run.pathname = `/${runName}`;
  const url = run.toString();
  return {
    dataDir,
    databaseUrl: url,
    target: { kind: 'postgres', url },
    runner: () => openRunner({ kind: 'postgres', url }),
    writer: () => openRunner({ kind: 'postgres', url }),
  };
}

/** Session rows per INSERT: 6 parameters each, well under either database's limit. */
const SESSIONS_PER_INSERT = 500;

/**
 * A session and its token for each member, as a sign-in makes them (tokens name their session),
 * without paying for a password check each: all sessions in one transaction.
 */
export async function signIn(
  copy: RunCopy,
  secret: string,
  chosen: readonly { index: number; id: string; username: string }[],
): Promise<Member[]> {
  const lifetime = 24 * 3600 * 1000;
  const sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: lifetime });
  const now = Date.now();
  const sessionOf = (index: number) => `BENCH${String(index).padStart(21, '0')}`;
  const writer = await copy.writer();
  try {
    await writer.transaction(async () => {
      for (let start = 0; start < chosen.length; start += SESSIONS_PER_INSERT) {
        const batch = chosen.slice(start, start + SESSIONS_PER_INSERT);
        const rows = batch.map((_, row) => {
          const first = row * 6;
          return `(${[1, 2, 3, 4, 5, 6].map((column) => `$${first + column}`).join(', ')})`;
        });
        await writer.all(
          'INSERT INTO sessions (id, user_id, user_agent, created_at, last_used_at, expires_at) ' +
            `VALUES ${rows.join(', ')} RETURNING id`,
          batch.flatMap(({ index, id }) => [
            sessionOf(index),
            id,
            'perch-bench',
            now,
            now,
            now + lifetime,
          ]),
        );
      }
    });
  } finally {
    await writer.close();
  }
  return chosen.map(({ index, id, username }) => ({
    index,
    id,
    username,
    token: sign({ username, sub: id, sid: sessionOf(index) }),
  }));
}
