import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Every bench member logs in with this password. */
export const BENCH_PASSWORD = 'perch-bench-2026';
/** scrypt (N=32768, r=8, p=1) of BENCH_PASSWORD, in the server's format; one hash for everyone. */
export const BENCH_PASSWORD_HASH =
  'scrypt$32768$8$1$dVDu7EM3banXBzcHcHbXcQ==$hjzTzWvLaq2bjsvl7/7vno11Hmph0+9mc+Q6/semN5A=';

/** Bumped whenever the generator's output changes, so stale instances are rebuilt, not reused. */
export const GENERATOR_VERSION = 6;

export const DEFAULT_SEED = 'perch';
export const DEFAULT_PG_URL = 'postgres://postgres@127.0.0.1:5432/perch_bench';

export interface Instance {
  kind: 'sqlite' | 'postgres';
  posts: number;
  seed: string;
  /** Holds perch.db (SQLite), secrets/jwt-secret and bench-meta.json. */
  dataDir: string;
  sqliteFile: string;
  databaseUrl: string | null;
}

export interface InstanceMeta {
  generatorVersion: number;
  kind: Instance['kind'];
  posts: number;
  seed: string;
  members: number;
  /** The instant the generated year ends at (ms). */
  now: number;
  databaseUrl: string | null;
  rows: Record<string, number>;
  loadSeconds: number;
  builtAt: string;
}

export function resolveInstance(options: {
  posts: number;
  seed?: string;
  dataDir?: string;
  databaseUrl?: string | null;
}): Instance {
  const databaseUrl = options.databaseUrl?.trim() ? options.databaseUrl.trim() : null;
  const kind = databaseUrl ? 'postgres' : 'sqlite';
  const dataDir = path.resolve(
    options.dataDir ??
      path.join(
        ROOT,
        'bench-data',
        kind === 'sqlite' ? String(options.posts) : `pg-${options.posts}`,
      ),
  );
  return {
    kind,
    posts: options.posts,
    seed: options.seed ?? DEFAULT_SEED,
    dataDir,
    sqliteFile: path.join(dataDir, 'perch.db'),
    databaseUrl,
  };
}

export const metaFileOf = (instance: Pick<Instance, 'dataDir'>) =>
  path.join(instance.dataDir, 'bench-meta.json');
export const secretFileOf = (instance: Pick<Instance, 'dataDir'>) =>
  path.join(instance.dataDir, 'secrets', 'jwt-secret');

export function readMeta(instance: Instance): InstanceMeta | null {
  try {
    return JSON.parse(readFileSync(metaFileOf(instance), 'utf8')) as InstanceMeta;
  } catch {
    return null;
  }
}

/** True when the directory holds a finished build of exactly this instance. */
export function isBuilt(instance: Instance): boolean {
  const meta = readMeta(instance);
  return (
    meta !== null &&
    meta.generatorVersion === GENERATOR_VERSION &&
    meta.kind === instance.kind &&
    meta.posts === instance.posts &&
    meta.seed === instance.seed &&
    meta.databaseUrl === instance.databaseUrl &&
    existsSync(secretFileOf(instance)) &&
    (instance.kind === 'postgres' || existsSync(instance.sqliteFile))
  );
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function parseCount(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(text.replace(/[_,]/g, ''));
  if (!match) throw new Error(`not a count: ${text}`);
  const unit = match[2]?.toLowerCase();
  const factor = unit === 'k' ? 1_000 : unit === 'm' ? 1_000_000 : 1;
  return Math.round(Number(match[1]) * factor);
}

/** A plain SQL connection for the bench's own checks, on either database. */
export interface SqlRunner {
  kind: Instance['kind'];
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function inTransaction<T>(
  run: (statement: 'BEGIN' | 'COMMIT' | 'ROLLBACK') => Promise<unknown>,
  work: () => Promise<T>,
): Promise<T> {
  await run('BEGIN');
  try {
    const result = await work();
    await run('COMMIT');
    return result;
  } catch (error) {
    await run('ROLLBACK');
    throw error;
  }
}

export async function openRunner(
  target: { kind: 'sqlite'; file: string; readonly?: boolean } | { kind: 'postgres'; url: string },
): Promise<SqlRunner> {
  if (target.kind === 'sqlite') {
    const db = new SqliteDatabase(target.file, { readonly: target.readonly ?? false });
    return {
      kind: 'sqlite',
      all: <T>(sql: string, params: unknown[] = []) =>
        Promise.resolve(db.prepare(sql.replace(/\$\d+/g, '?')).all(...params) as T[]),
      transaction: (work) =>
        inTransaction((statement) => Promise.resolve(db.exec(statement)), work),
      close: () => {
        db.close();
        return Promise.resolve();
      },
    };
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  return {
    kind: 'postgres',
    all: async <T>(sql: string, params: unknown[] = []) =>
      (await client.query(sql, params)).rows as T[],
    transaction: (work) => inTransaction((statement) => client.query(statement), work),
    close: () => client.end(),
  };
}

export const TABLES = [
  'users',
  'posts',
  'post_media',
  'likes',
  'reposts',
  'comments',
  'comment_votes',
  'follows',
  'bookmarks',
] as const;

export async function countRows(runner: SqlRunner): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const [row] = await runner.all<{ n: number | string }>(`SELECT count(*) AS n FROM ${table}`);
    counts[table] = Number(row?.n ?? 0);
  }
  return counts;
}

/** Every stored counter against the rows it counts: name → number of rows where they differ. */
export async function checkCounters(runner: SqlRunner): Promise<Record<string, number>> {
  const checks: Record<string, string> = {
    'users.posts_count': `SELECT count(*) AS n FROM users u
      LEFT JOIN (SELECT user_id, count(*) AS c FROM posts GROUP BY user_id) x ON x.user_id = u.id
      WHERE u.posts_count <> coalesce(x.c, 0)`,
    'users.followers_count': `SELECT count(*) AS n FROM users u
      LEFT JOIN (SELECT followee_id, count(*) AS c FROM follows GROUP BY followee_id) x
        ON x.followee_id = u.id
      WHERE u.followers_count <> coalesce(x.c, 0)`,
    'users.following_count': `SELECT count(*) AS n FROM users u
      LEFT JOIN (SELECT follower_id, count(*) AS c FROM follows GROUP BY follower_id) x
        ON x.follower_id = u.id
      WHERE u.following_count <> coalesce(x.c, 0)`,
    'posts.like_count': `SELECT count(*) AS n FROM posts p
      LEFT JOIN (SELECT post_id, count(*) AS c FROM likes GROUP BY post_id) x ON x.post_id = p.id
      WHERE p.like_count <> coalesce(x.c, 0)`,
    'posts.repost_count': `SELECT count(*) AS n FROM posts p
      LEFT JOIN (SELECT post_id, count(*) AS c FROM reposts GROUP BY post_id) x ON x.post_id = p.id
      WHERE p.repost_count <> coalesce(x.c, 0)`,
    'posts.comment_count': `SELECT count(*) AS n FROM posts p
      LEFT JOIN (SELECT post_id, count(*) AS c FROM comments GROUP BY post_id) x ON x.post_id = p.id
      WHERE p.comment_count <> coalesce(x.c, 0)`,
    'comments.votes': `SELECT count(*) AS n FROM comments c
      LEFT JOIN (SELECT comment_id, sum(CASE WHEN vote = 1 THEN 1 ELSE 0 END) AS up,
                        sum(CASE WHEN vote = -1 THEN 1 ELSE 0 END) AS down
                 FROM comment_votes GROUP BY comment_id) x ON x.comment_id = c.id
      WHERE c.upvote_count <> coalesce(x.up, 0) OR c.downvote_count <> coalesce(x.down, 0)`,
    'tags.post_count': `SELECT count(*) AS n FROM
      (SELECT tag, count(*) AS c FROM post_tags GROUP BY tag) x
      FULL OUTER JOIN tags t ON t.name = x.tag
      WHERE t.post_count IS NULL OR x.c IS NULL OR t.post_count <> x.c`,
    'notification_unread_counts.count': `SELECT count(*) AS n FROM
      (SELECT recipient_id, count(*) AS c FROM notifications WHERE read_at IS NULL
       GROUP BY recipient_id) x
      FULL OUTER JOIN notification_unread_counts k ON k.recipient_id = x.recipient_id
      WHERE coalesce(k.count, 0) <> coalesce(x.c, 0)`,
  };
  const result: Record<string, number> = {};
  for (const [name, sql] of Object.entries(checks)) {
    const [row] = await runner.all<{ n: number | string }>(sql);
    result[name] = Number(row?.n ?? 0);
  }
  return result;
}
