import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { isValidMediaKey } from '../../lib/media-key';

export interface StoredObject {
  key: string;
  /** Milliseconds since the epoch. */
  modifiedAt: number;
}

/**
 * Where uploaded images live, by key ("ab/abcdef….webp"); the public URL of a key is
 * `/media/<key>`. The disk store below keeps them in DATA_DIR/media, where the web plugin serves
 * them; an S3-compatible store can take its place by implementing the same six calls.
 */
export interface MediaStore {
  /**
   * Stores an object whole: readers see the previous one or the new one, never part of one.
   * contentType is what an object store should serve it as; the disk store's file server goes by
   * the key's extension.
   */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** Removes an object; one that is not there is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** The object's bytes as a stream (never read whole into memory); null when it is not there. */
  read(key: string): Promise<Readable | null>;
  /** Every stored object, for the orphan sweep. */
  list(): AsyncIterable<StoredObject>;
  /** Removes leftovers of writes that never finished (a crash mid-write), older than the time given. */
  removeIncomplete(olderThan: number): Promise<number>;
}

const TEMP_DIR = '.incoming';

function checkKey(key: string): void {
  if (!isValidMediaKey(key)) throw new Error(`invalid media key: ${JSON.stringify(key)}`);
}

export class DiskMediaStore implements MediaStore {
  constructor(readonly root: string) {}

  private pathOf(key: string): string {
    checkKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, data: Buffer, _contentType?: string): Promise<void> {
    const target = this.pathOf(key);
    // Written beside the media (same file system, so the rename is atomic) in a hidden folder
    // that the static file server does not serve.
    const tempDir = path.join(this.root, TEMP_DIR);
    await mkdir(tempDir, { recursive: true, mode: 0o700 });
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const temp = path.join(tempDir, `${randomBytes(12).toString('hex')}.part`);
    try {
      // Only the server reads media files (it serves them); no other account on the machine may.
      const file = await open(temp, 'wx', 0o600);
      try {
        await file.writeFile(data);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  async read(key: string): Promise<Readable | null> {
    try {
      const file = await open(this.pathOf(key), 'r');
      // The stream closes the file when it ends or is destroyed (a download cut short).
      return file.createReadStream();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async *list(): AsyncIterable<StoredObject> {
    yield* this.walk('');
  }

  private async *walk(prefix: string): AsyncGenerator<StoredObject> {
    const dir = prefix ? path.join(this.root, ...prefix.split('/')) : this.root;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const key = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        yield* this.walk(key);
      } else if (entry.isFile()) {
        try {
          const info = await stat(path.join(dir, entry.name));
          yield { key, modifiedAt: info.mtimeMs };
        } catch (error) {
          // Removed while we walked: nothing to report.
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
    }
  }

  async removeIncomplete(olderThan: number): Promise<number> {
    const tempDir = path.join(this.root, TEMP_DIR);
    let names: string[];
    try {
      names = await readdir(tempDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names) {
      const file = path.join(tempDir, name);
      try {
        if ((await stat(file)).mtimeMs < olderThan) {
          await rm(file, { force: true });
          removed += 1;
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return removed;
  }
}

export function createDiskMediaStore(root: string): MediaStore {
  return new DiskMediaStore(root);
}
