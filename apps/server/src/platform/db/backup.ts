import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { isValidMediaKey } from '../../lib/media-key';
import {
  PRIVATE_DIR,
  PRIVATE_FILE,
  clearDir,
  copyMedia,
  createPrivateFile,
  isEmptyDir,
  makePrivateDir,
  syncDir,
} from './backup-files';
import { openSqlite } from './database';

/** A backup or restore that cannot go ahead; the message says why, for the operator. */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** Where an instance keeps its SQLite database and its uploaded media. */
export interface SqliteLayout {
  databaseFile: string;
  mediaDir: string;
}

export interface BackupResult {
  destination: string;
  mediaFiles: number;
  /** Media the backed-up database names that were gone before they could be copied. */
  missingMedia: string[];
}

export interface RestoreResult {
  /** Whether a database was there before and has been replaced. */
  replaced: boolean;
  mediaFiles: number;
}

const DATABASE_NAME = 'perch.db';
const MEDIA_NAME = 'media';
const MANIFEST_NAME = 'backup.json';
const FORMAT = 1;
const MEDIA_URL_PREFIX = '/media/';

// better-sqlite3 takes at most this many pages per step.
const ALL_PAGES = 0x7fffffff;

interface Manifest {
  format: number;
  createdAt: string;
  mediaFiles: number;
}

/** DATA_DIR/backups/2026-01-02T03-04-05Z: sorts by time and is a valid name on every system. */
export function defaultBackupDir(dataDir: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
  return path.join(dataDir, 'backups', stamp);
}

/**
 * Copies a database through SQLite's backup API. All pages go in one step, which reads them under
 * a single read transaction: a consistent snapshot that the server's writers (which WAL lets go on
 * meanwhile) cannot disturb. Copying in small steps would start over whenever the server commits
 * between two of them, possibly forever on a busy instance; copying the file itself could catch a
 * page half-written or miss what is still in the -wal file.
 */
async function copyDatabase(source: SqliteDatabase.Database, destination: string): Promise<void> {
  createPrivateFile(destination);
  await source.backup(destination, { progress: () => ALL_PAGES });
}

function checkIntegrity(sqlite: SqliteDatabase.Database, file: string): void {
  const result: unknown = sqlite.pragma('integrity_check', { simple: true });
  if (result !== 'ok')
    throw new BackupError(`${file} failed its integrity check: ${String(result)}`);
}

/**
 * The copy leaves WAL mode: one self-contained file, which opens read-only without -wal or -shm
 * files beside it. Restoring turns WAL on again when the server opens it.
 */
function sealCopy(file: string): void {
  const copy = new SqliteDatabase(file);
  try {
    copy.pragma('journal_mode = DELETE');
    checkIntegrity(copy, file);
  } finally {
    copy.close();
  }
  chmodSync(file, PRIVATE_FILE);
}

/** Every /media/ URL the database names, as store keys. */
function mediaKeysNamedBy(sqlite: SqliteDatabase.Database): string[] {
  const tables = new Set(
    sqlite.prepare("select name from sqlite_master where type = 'table'").pluck().all(),
  );
  const queries = [
    tables.has('media') && 'select url from media union select thumbnail_url from media',
    tables.has('posts') && 'select media_url from posts where media_url is not null',
    tables.has('post_media') && 'select url from post_media',
    tables.has('users') && 'select avatar_url from users where avatar_url is not null',
  ].filter((query): query is string => query !== false);
  if (queries.length === 0) return [];
  const urls = sqlite.prepare(queries.join(' union ')).pluck().all() as string[];
  return urls
    .filter((url) => url.startsWith(MEDIA_URL_PREFIX))
    .map((url) => url.slice(MEDIA_URL_PREFIX.length))
    .filter(isValidMediaKey);
}

function missingMediaOf(databaseFile: string, mediaDir: string): string[] {
  const sqlite = new SqliteDatabase(databaseFile, { readonly: true, fileMustExist: true });
  try {
    return mediaKeysNamedBy(sqlite).filter(
      (key) => !existsSync(path.join(mediaDir, ...key.split('/'))),
    );
  } finally {
    sqlite.close();
  }
}

function prepareDestination(destination: string): boolean {
  if (!existsSync(destination)) {
    makePrivateDir(destination);
    return true;
  }
  if (!isEmptyDir(destination)) {
    throw new BackupError(`${destination} already exists and is not empty; name a new folder`);
  }
  chmodSync(destination, PRIVATE_DIR);
  return false;
}

/**
 * Backs up a SQLite instance, which may be serving meanwhile, into a new folder: the database,
 * then its media, then a manifest that marks the backup finished.
 */
export async function backupSqlite(
  layout: SqliteLayout,
  destination: string,
  now = new Date(),
): Promise<BackupResult> {
  if (!existsSync(layout.databaseFile)) {
    throw new BackupError(`there is no database at ${layout.databaseFile}`);
  }
  const fromMedia = path.relative(path.resolve(layout.mediaDir), path.resolve(destination));
  if (!fromMedia.startsWith('..') && !path.isAbsolute(fromMedia)) {
    // It would be copied into itself, and served to anyone at /media/.
    throw new BackupError(`a backup cannot go inside the media folder ${layout.mediaDir}`);
  }
  const created = prepareDestination(destination);
  try {
    const databaseCopy = path.join(destination, DATABASE_NAME);
    const source = openSqlite(layout.databaseFile);
    try {
      await copyDatabase(source, databaseCopy);
    } finally {
      source.close();
    }
    sealCopy(databaseCopy);

    // Media after the database: an upload's files are written before the row naming them
    // commits, and files are never changed once written, so every image the snapshot names is
    // on disk by now and copying it later gets the same bytes. Copied before the snapshot, an
    // image uploaded in between would be named but missing. Images uploaded since are copied
    // too; no row names them, so the media sweep removes them a day after restoring. Only an
    // image released since the snapshot (its last post deleted meanwhile) can be gone: it is
    // reported, not silently missed.
    const mediaCopy = path.join(destination, MEDIA_NAME);
    const mediaFiles = await copyMedia(layout.mediaDir, mediaCopy);
    const missingMedia = missingMediaOf(databaseCopy, mediaCopy);

    const manifest: Manifest = { format: FORMAT, createdAt: now.toISOString(), mediaFiles };
    writeFileSync(path.join(destination, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`, {
      flag: 'wx',
      mode: PRIVATE_FILE,
    });
    return { destination, mediaFiles, missingMedia };
  } catch (error) {
    clearDir(destination, created);
    throw error;
  }
}

function readManifest(backupDir: string): Manifest {
  const file = path.join(backupDir, MANIFEST_NAME);
  if (!existsSync(file)) {
    throw new BackupError(
      `${backupDir} is not a finished Perch backup: it has no ${MANIFEST_NAME}`,
    );
  }
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Partial<Manifest>;
  if (manifest.format !== FORMAT) {
    throw new BackupError(
      `${file} has format ${String(manifest.format)}; this Perch reads ${FORMAT}`,
    );
  }
  if (!existsSync(path.join(backupDir, DATABASE_NAME))) {
    throw new BackupError(`${backupDir} has no ${DATABASE_NAME}`);
  }
  return manifest as Manifest;
}

/**
 * Whether some connection, in this process or another, has the database open: a server keeps a
 * shared lock on it in WAL mode, which an exclusive lock cannot get past. When nobody has it
 * open, closing this connection checkpoints the -wal file into the database.
 */
export function isDatabaseInUse(databaseFile: string): boolean {
  const sqlite = new SqliteDatabase(databaseFile, { fileMustExist: true, timeout: 0 });
  try {
    sqlite.pragma('locking_mode = EXCLUSIVE');
    sqlite.exec('begin exclusive');
    sqlite.exec('commit');
    return false;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_BUSY') return true;
    // A damaged database is what a restore is for; nothing serves from it anyway.
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') return false;
    throw error;
  } finally {
    sqlite.close();
  }
}

/** Puts a backup's database in place of the target's, which must be closed. */
async function replaceDatabase(backupFile: string, databaseFile: string): Promise<void> {
  const backup = new SqliteDatabase(backupFile, { readonly: true, fileMustExist: true });
  const temp = `${databaseFile}.restoring-${randomBytes(6).toString('hex')}`;
  try {
    checkIntegrity(backup, backupFile);
    makePrivateDir(path.dirname(databaseFile));
    await copyDatabase(backup, temp);
    // The old database's journal files would be replayed into the new one and corrupt it.
    for (const suffix of ['-wal', '-shm', '-journal'])
      rmSync(databaseFile + suffix, { force: true });
    // Stopped at any point, this leaves the old database or the new one whole, never part of one.
    renameSync(temp, databaseFile);
    syncDir(path.dirname(databaseFile));
  } finally {
    backup.close();
    rmSync(temp, { force: true });
  }
}

/**
 * Restores a backup made by backupSqlite: its database replaces the target's (only with force, and
 * never while a server has it open) and its media join the target's media folder.
 */
export async function restoreSqlite(
  backupDir: string,
  layout: SqliteLayout,
  options: { force?: boolean } = {},
): Promise<RestoreResult> {
  readManifest(backupDir);
  const replaced = existsSync(layout.databaseFile) || existsSync(`${layout.databaseFile}-wal`);
  if (replaced && !options.force) {
    throw new BackupError(
      `${layout.databaseFile} already exists; restoring replaces it, so pass --force to go ahead`,
    );
  }
  if (existsSync(layout.databaseFile) && isDatabaseInUse(layout.databaseFile)) {
    throw new BackupError(
      `${layout.databaseFile} is in use: stop the Perch server (every worker) before restoring`,
    );
  }
  await replaceDatabase(path.join(backupDir, DATABASE_NAME), layout.databaseFile);
  const mediaFiles = await copyMedia(path.join(backupDir, MEDIA_NAME), layout.mediaDir);
  return { replaced, mediaFiles };
}
