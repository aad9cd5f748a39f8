import {
  closeSync,
  constants,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { chmod, copyFile, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Backups hold password hashes and emails: every folder made here is the owner's alone (0700) and
 * every file 0600, whatever the umask.
 */
export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;

export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
}

/** Creates an empty file that must not exist yet, readable by its owner only. */
export function createPrivateFile(file: string): void {
  closeSync(openSync(file, 'wx', PRIVATE_FILE));
}

/** Makes a rename in dir survive a power cut; file systems that cannot sync a folder are skipped. */
export function syncDir(dir: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Windows, for one, cannot open a folder for syncing.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

export function isEmptyDir(dir: string): boolean {
  return statSync(dir).isDirectory() && readdirSync(dir).length === 0;
}

/** Removes what is inside dir, and dir itself when asked. */
export function clearDir(dir: string, removeDir: boolean): void {
  if (!existsSync(dir)) return;
  if (removeDir) {
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  for (const name of readdirSync(dir))
    rmSync(path.join(dir, name), { recursive: true, force: true });
}

async function copyIfAbsent(source: string, target: string): Promise<boolean> {
  try {
    await copyFile(source, target, constants.COPYFILE_EXCL);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Media names are content addresses: a file of the same name already has the same bytes.
    if (code === 'EEXIST') return false;
    // Removed since the folder was read (an image released meanwhile): nothing left to copy.
    if (code === 'ENOENT') return false;
    throw error;
  }
  await chmod(target, PRIVATE_FILE);
  return true;
}

/**
 * Copies the media folder's files into another (never moving them: the running server keeps
 * serving its own), keeping files already there. Answers how many were copied.
 */
export async function copyMedia(from: string, to: string): Promise<number> {
  await mkdir(to, { recursive: true, mode: PRIVATE_DIR });
  let entries;
  try {
    entries = await readdir(from, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let copied = 0;
  for (const entry of entries) {
    // Dot-folders hold uploads still being written (see media.store.ts): not media yet.
    if (entry.name.startsWith('.')) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copied += await copyMedia(source, target);
    else if (entry.isFile() && (await copyIfAbsent(source, target))) copied += 1;
  }
  return copied;
}
