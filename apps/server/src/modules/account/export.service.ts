import { PassThrough, Readable } from 'node:stream';
import { exportFileName } from '@perch/contract';
import type { Kysely } from 'kysely';
import { ZipFile } from 'yazl';
import type { Viewer } from '../../lib/viewer';
import type { Database, UserRow } from '../../platform/db/schema';
import { unauthorized } from '../../lib/errors';
import { mediaKeyOf, type MediaLog, type MediaService } from '../media/media.service';
import type { UsersService } from '../users/users.service';
import { exportFiles, pages } from './export-files';
import * as repo from './export.repository';

type Db = Kysely<Database>;
/** Rows read per query: a page of posts is at most about 4 MB of text (2,000 characters each). */
const PAGE_SIZE = 500;
const IMAGE_PAGE_SIZE = 100;

export interface ExportServiceDeps {
  /** Pages are read here (a read-only connection on SQLite), one query at a time. */
  reads: Db;
  users: Pick<UsersService, 'recordById'>;
  media: Pick<MediaService, 'has' | 'read'>;
  log: MediaLog;
  pageSize?: number;
}

/**
 * Adds the member's avatar and the images of their posts, each once; they are stored compressed
 * already, and found (not read) ahead of the archive.
 */
async function addImages(
  reads: Db,
  row: Pick<UserRow, 'id' | 'avatar_url'>,
  addImage: (url: string) => Promise<void>,
  stopped: () => boolean,
): Promise<void> {
  if (row.avatar_url !== null) await addImage(row.avatar_url);
  const urls = pages<string>(
    (last) => repo.postImagesPage(reads, row.id, last ?? null, IMAGE_PAGE_SIZE),
    IMAGE_PAGE_SIZE,
  );
  for await (const page of urls) {
    for (const url of page) {
      if (stopped()) return;
      if (url !== row.avatar_url) await addImage(url);
    }
  }
}

/**
 * A member's data as a zip archive, streamed: profile.json, posts.json, comments.json,
 * likes.json, bookmarks.json, follows.json, notifications.json and the images of their posts and
 * profile under media/ (at the path of their URL). Each file is read from the database a page
 * at a time as the archive reaches it and the client takes it, and images are streamed from the
 * media store: memory stays flat whatever the member's size. Not a snapshot: a change made while
 * an export runs may or may not be in it. When the download stops (the client went away), so
 * does the reading.
 */
export function createExportService({
  reads,
  users,
  media,
  log,
  pageSize = PAGE_SIZE,
}: ExportServiceDeps) {
  let running = 0;

  async function open(viewer: Viewer): Promise<{ fileName: string; stream: Readable }> {
    const row = await users.recordById(viewer.id);
    if (!row) throw unauthorized();
    const now = new Date();
    const zip = new ZipFile();
    const output = zip.outputStream;
    // Typed as the bare stream interface; what it is, is a PassThrough (destroyable, as sent).
    if (!(output instanceof PassThrough)) throw new Error('the zip writer has no PassThrough');
    // What is being read for the archive right now (one file at a time).
    const sources = new Set<Readable>();
    let stopped = false;
    running += 1;

    const stop = (error?: Error) => {
      if (stopped) return;
      stopped = true;
      running -= 1;
      for (const source of sources) source.destroy();
      sources.clear();
      if (error) {
        log.warn({ err: error, userId: row.id }, 'an export failed');
        // Headers are sent: the client sees the download break off, not a whole archive.
        output.destroy(error);
      }
    };
    // Finished, or cut short: Fastify destroys the stream when the client goes away.
    output.once('close', () => {
      stop();
    });
    zip.on('error', stop);

    /** Adds a file whose bytes are read only when the archive comes to it. */
    const add = (name: string, compress: boolean, read: () => Promise<Readable | null>) => {
      zip.addReadStreamLazy(name, { compress, mtime: now }, (ready) => {
        if (stopped) return;
        read().then(
          (found) => {
            const source = found ?? Readable.from([]);
            if (stopped) {
              source.destroy();
              return;
            }
            sources.add(source);
            source.once('error', stop);
            source.once('close', () => sources.delete(source));
            ready(null, source);
          },
          (error: unknown) => {
            stop(error instanceof Error ? error : new Error(String(error)));
          },
        );
      });
    };

    for (const [name, make] of exportFiles(reads, row, now, pageSize))
      add(name, true, () => Promise.resolve(make()));

    const addImage = async (url: string) => {
      const key = mediaKeyOf(url);
      if (key !== null && (await media.has(url))) add(`media/${key}`, false, () => media.read(url));
    };
    addImages(reads, row, addImage, () => stopped).then(
      () => {
        if (!stopped) zip.end();
      },
      (error: unknown) => {
        stop(error instanceof Error ? error : new Error(String(error)));
      },
    );

    return { fileName: exportFileName(row.username, now), stream: output };
  }

  return {
    open,
    /** Exports streaming now in this process. */
    running: () => running,
  };
}

export type ExportService = ReturnType<typeof createExportService>;
