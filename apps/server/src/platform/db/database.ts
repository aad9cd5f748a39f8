import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';
import pg from 'pg';
import { DEFAULT_RESTART_FRAMES, startCheckpointer, type Checkpointer } from './checkpointer';
import { preparingClient } from './prepared-statements';
import {
  lendStatements,
  lendStatementsToTransactions,
  type KeptStatements,
} from './direct-statements';
import { createWaitingPostsIndexer } from './search-index';
import { PerchSqliteDialect } from './sqlite-dialect';
import { planWithoutValueSamples } from './statistics';
import type { Database } from './schema';

export type DatabaseKind = 'sqlite' | 'postgres';

export type DatabaseTarget =
  | { kind: 'sqlite'; filename: string; cacheMiB?: number }
  | { kind: 'postgres'; url: string; poolSize?: number };

export interface DatabaseHandle {
  db: Kysely<Database>;
  /**
   * For reads: on a SQLite file a read-only connection of its own, opened on first use. The
   * writing connection serves one statement or transaction at a time, so without it a read waits
   * for every write transaction ahead of it; in WAL mode the second connection reads the last
   * committed state meanwhile. Elsewhere (PostgreSQL's pool, an in-memory SQLite) it is `db`.
   */
  reads: Kysely<Database>;
  kind: DatabaseKind;
  /** A SQLite database's file; absent for an in-memory one and on PostgreSQL. */
  file?: string;
  /** A SQLite file's log is checkpointed off the event loop (see checkpointer.ts). */
  checkpointer?: Checkpointer;
}

// Counts and times fit comfortably in a double; keep them numbers rather than strings.
pg.types.setTypeParser(pg.types.builtins.INT8, Number);

/** Pages SQLite keeps in memory for each connection, in MiB, unless SQLITE_CACHE_MB says otherwise. */
export const DEFAULT_SQLITE_CACHE_MIB = 8;

export function targetFromConfig(config: {
  dataDir: string;
  databaseUrl: string | null;
  sqliteCacheMiB?: number;
}): DatabaseTarget {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : {
        kind: 'sqlite',
        filename: path.join(config.dataDir, 'perch.db'),
        cacheMiB: config.sqliteCacheMiB ?? DEFAULT_SQLITE_CACHE_MIB,
      };
}

/**
 * The database holds password hashes and emails: only its owner may read it. SQLite gives the
 * -wal and -shm files the main file's permissions, so creating that one 0600 covers all three;
 * files of an older instance are narrowed too.
 */
function createPrivately(filename: string): void {
  mkdirSync(path.dirname(filename), { recursive: true, mode: 0o700 });
  if (!existsSync(filename)) closeSync(openSync(filename, 'a', 0o600));
  for (const file of [filename, `${filename}-wal`, `${filename}-shm`]) {
    if (existsSync(file)) chmodSync(file, 0o600);
  }
}

/*
 * SQLite's page cache is memory of the process, one per connection; the kernel's page cache keeps
 * the file outside it, and a miss costs a few microseconds to copy a page from there. On the
 * 1,000,000-post instance (1.9 GB), feed reads with 32 or 64 MB caches differed from 16 MB by less
 * than the run-to-run noise, and 8 MB kept the server's peak 16 MB lower for reads of cold rows
 * within the noise too (SQLITE_CACHE_MB sets it, DEFAULT_SQLITE_CACHE_MIB below).
 *
 * mmap_size stays 0: mapped pages count in the process's resident memory as they are read (a
 * file-backed mapping the kernel can drop, but resident all the same). On that instance, 3,000
 * home-feed reads through a 1 GB mapping added 260 MB of it, for 5–10% less CPU.
 */
const BUSY_TIMEOUT_MS = 5000;

export function openSqlite(
  filename: string,
  cacheMiB = DEFAULT_SQLITE_CACHE_MIB,
): SqliteDatabase.Database {
  if (filename !== ':memory:') createPrivately(filename);
  const sqlite = new SqliteDatabase(filename);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma(`cache_size = -${cacheMiB * 1024}`);
  return sqlite;
}

/**
 * A read-only connection to a database openSqlite made WAL. Temporary b-trees (sorts, IN lists)
 * stay in memory: the app reads pages of rows, so they stay small. The writer keeps them in files:
 * a migration building an index over millions of rows sorts there.
 */
export function openSqliteReader(
  filename: string,
  cacheMiB = DEFAULT_SQLITE_CACHE_MIB,
): SqliteDatabase.Database {
  const sqlite = new SqliteDatabase(filename, { readonly: true, fileMustExist: true });
  // In WAL mode a reader waits only while a checkpoint restarts the log or after a crash.
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma(`cache_size = -${cacheMiB * 1024}`);
  sqlite.pragma('temp_store = MEMORY');
  return sqlite;
}

/** A page of the log: SQLite's default page of 4 KiB and the frame's header. */
const LOG_FRAME_BYTES = 4096 + 24;

/**
 * A log larger than this is cut back to it once started over, rather than kept at its largest.
 * It lies above what the checkpointer lets the log reach under steady writes (its restart size,
 * 65,536 frames or 270 MB, plus what a quarter second adds before the checkpointer looks again),
 * so that such a log is written over in place. Cut back to 64 MB at each restart, the log grew
 * again into new space of the file, where each frame (a page and a 24-byte header, never aligned
 * with the file system's blocks) had the kernel allocate blocks and zero what the frame did not
 * fill: 4% of the main thread during likes on the 1,000,000-post instance went to that zeroing,
 * and likes ran 7–14% faster with the log kept (two runs each way). The price is up to this much
 * disk for the log of an instance that writes that much between checkpoints.
 */
const LOG_SIZE_LIMIT_BYTES = Math.ceil(DEFAULT_RESTART_FRAMES * 1.4) * LOG_FRAME_BYTES;

/** The writer leaves checkpoints to a thread of their own (see checkpointer.ts). */
function checkpointElsewhere(writer: SqliteDatabase.Database, filename: string): Checkpointer {
  writer.pragma('wal_autocheckpoint = 0');
  writer.pragma(`journal_size_limit = ${LOG_SIZE_LIMIT_BYTES}`);
  return startCheckpointer(filename);
}

export interface DatabaseOptions {
  /**
   * An idle pooled connection failed (server restart, failover, connection killed). The pool drops
   * it and opens another when needed; without a listener the error would end the process.
   */
  onIdleConnectionError?: (error: Error) => void;
}

const reportIdleConnectionError = (error: Error) => {
  console.error(`perch: an idle database connection failed: ${error.message}`);
};

const STATEMENT_CACHE_SIZE = 500;
/** PostgreSQL: statement texts a process names (prepares once per connection). */
const PREPARED_STATEMENTS_MAX = 1000;

/**
 * Kysely prepares every query anew; compiling the same SQL again costs more than running many of
 * the app's queries. The app issues a small, fixed set of statements, so they are kept.
 */
export function withStatementCache(
  sqlite: SqliteDatabase.Database,
): KeptStatements & { close(): void } {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare: (sql: string) => {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) {
          const oldest = statements.keys().next();
          if (!oldest.done) statements.delete(oldest.value);
        }
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * The writer's transactions begin IMMEDIATE: they take SQLite's write lock first. A plain BEGIN
 * takes it at the first write, and a transaction that read first then fails at once with
 * "database is locked" if another process (WORKERS > 1) wrote meanwhile, its snapshot being out of
 * date. While another process holds the lock, SQLite's busy handler would sleep on this thread,
 * stopping every request of the process; the lock is waited for here instead, between turns of the
 * event loop, with the connection's busy timeout off for that one statement. Before each COMMIT,
 * the posts the transaction inserted are indexed for search together (see search-index.ts).
 */
class WriterSqliteDriver extends SqliteDriver {
  readonly #indexWaitingPosts = createWaitingPostsIndexer();

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#indexWaitingPosts(connection);
    await super.commitTransaction(connection);
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const deadline = Date.now() + BUSY_TIMEOUT_MS;
    await connection.executeQuery(NO_BUSY_WAIT);
    try {
      for (let waitMs = 1; ; waitMs = Math.min(waitMs * 2, MAX_LOCK_POLL_MS)) {
        try {
          await connection.executeQuery(BEGIN_IMMEDIATE);
          return;
        } catch (error) {
          if (!isLocked(error) || Date.now() >= deadline) throw error;
        }
        await sleep(waitMs);
      }
    } finally {
      await connection.executeQuery(BUSY_WAIT);
    }
  }
}

const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');
const NO_BUSY_WAIT = CompiledQuery.raw('pragma busy_timeout = 0');
const BUSY_WAIT = CompiledQuery.raw(`pragma busy_timeout = ${BUSY_TIMEOUT_MS}`);
const MAX_LOCK_POLL_MS = 8;
const isLocked = (error: unknown) =>
  error instanceof SqliteDatabase.SqliteError && error.code === 'SQLITE_BUSY';

class WriterSqliteDialect extends PerchSqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new WriterSqliteDriver(this.#config);
  }
}

/**
 * The read-only connection, opened on first use: by then the writer has made the file, migrated
 * it and set WAL, and tools that only migrate or seed never open it. Once Kysely opened it, its
 * compiled queries run its statements directly (see direct-statements.ts).
 */
function readOnlyKysely(filename: string, cacheMiB: number | undefined): Kysely<Database> {
  let opened: (KeptStatements & { close(): void }) | undefined;
  const reads = new Kysely<Database>({
    dialect: new PerchSqliteDialect({
      database: () => {
        const statements = withStatementCache(openSqliteReader(filename, cacheMiB));
        const database = {
          prepare: (sql: string) => statements.prepare(sql),
          close: () => {
            opened = undefined;
            statements.close();
          },
        };
        opened = database;
        return Promise.resolve(database);
      },
    }),
  });
  lendStatements(reads, () => opened);
  return reads;
}

export function createDatabase(
  target: DatabaseTarget,
  options: DatabaseOptions = {},
): DatabaseHandle {
  if (target.kind === 'sqlite') {
    const { filename, cacheMiB } = target;
    const writer = openSqlite(filename, cacheMiB);
    planWithoutValueSamples(writer);
    const checkpointer =
      filename === ':memory:' ? undefined : checkpointElsewhere(writer, filename);
    const writerStatements = withStatementCache(writer);
    const db = new Kysely<Database>({
      dialect: new WriterSqliteDialect({ database: writerStatements }),
    });
    lendStatementsToTransactions(db, writerStatements);
    // An in-memory database is private to its connection: a second one would see another.
    const reads = filename === ':memory:' ? db : readOnlyKysely(filename, cacheMiB);
    if (!checkpointer) return { kind: 'sqlite', db, reads };
    return { kind: 'sqlite', db, reads, file: filename, checkpointer };
  }
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolSize ?? 10,
    // With the database down, a request waits this long for a connection, then answers 503.
    connectionTimeoutMillis: 3_000,
    keepAlive: true,
    Client: preparingClient(PREPARED_STATEMENTS_MAX),
  });
  const onError = options.onIdleConnectionError ?? reportIdleConnectionError;
  pool.on('error', onError);
  // The pool listens to idle clients only; a client whose connection drops while it runs a query
  // also emits 'error', which would end the process without a listener. The query itself fails
  // and is answered (503).
  pool.on('connect', (client) => {
    client.on('error', onError);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { kind: 'postgres', db, reads: db };
}

/** Closes the handle's connections; the writer last, so that it checkpoints the log away. */
export async function closeDatabase(handle: DatabaseHandle): Promise<void> {
  await handle.checkpointer?.stop();
  if (handle.reads !== handle.db) await handle.reads.destroy();
  await handle.db.destroy();
}
