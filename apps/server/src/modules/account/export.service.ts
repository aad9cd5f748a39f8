import { PassThrough, Readable } from 'node:stream';
import { exportFileName } from '@perch/contract';
import type { Kysely } from 'kysely';
import { ZipFile } from 'yazl';
import type { Viewer } from '../../lib/viewer';
import type { Database, UserRow } from '../../platform/db/schema';
import { unauthorized } from '../../lib/errors';
import { toIso } from '../../lib/time';
import { mediaKeyOf, type MediaLog, type MediaService } from '../media/media.service';
import type { UsersService } from '../users/users.service';
import * as repo from './export.repository';

type Db = Kysely<Database>;
/** The row type of a page query. */
type RowOf<Query extends (...args: never[]) => Promise<unknown[]>> = Awaited<
  ReturnType<Query>
>[number];

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

/** Pages of rows, each read after the previous page's last row, until a page comes back short. */
async function* pages<Row>(
  read: (last: Row | undefined) => Promise<Row[]>,
  size: number,
): AsyncGenerator<Row[]> {
  let last: Row | undefined;
  for (;;) {
    const rows = await read(last);
    if (rows.length > 0) yield rows;
    if (rows.length < size) return;
    last = rows[rows.length - 1];
  }
}

/** A JSON array written as its pages come: one item a line, one chunk a page. */
async function* jsonArray<Row>(
  source: AsyncIterable<Row[]>,
  item: (row: Row) => unknown,
  indent = '',
): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const rows of source) {
    const lines = rows.map((row) => `${indent}  ${JSON.stringify(item(row))}`).join(',\n');
    yield `${first ? '\n' : ',\n'}${lines}`;
    first = false;
  }
  yield first ? ']' : `\n${indent}]`;
}

/** A file of the archive from text chunks, pulled (and so read from the database) as zipped. */
function textFile(chunks: AsyncIterable<string>): Readable {
  return Readable.from(
    (async function* bytes() {
      for await (const chunk of chunks) yield Buffer.from(chunk, 'utf8');
    })(),
    { objectMode: false },
  );
}

const member = (row: { id: string; username: string; created_at: number }) => ({
  id: row.id,
  username: row.username,
  followedAt: toIso(row.created_at),
});

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

  /** The JSON files, each a stream made when the archive comes to it. */
  function jsonFiles(row: UserRow, now: Date): [name: string, open: () => Readable][] {
    const id = row.id;
    const timeKey = <R extends { created_at: number }>(
      last: R | undefined,
      key: (r: R) => string,
    ) => (last ? ([last.created_at, key(last)] as const) : null);
    const profile = {
      id,
      username: row.username,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      bio: row.bio,
      avatarURL: row.avatar_url,
      createdAt: toIso(row.created_at),
      updatedAt: toIso(row.updated_at),
      followersCount: row.followers_count,
      followingCount: row.following_count,
      postsCount: row.posts_count,
      exportedAt: now.toISOString(),
    };
    const posts = pages<RowOf<typeof repo.postsPage>>(
      (last) =>
        repo.postsPage(
          reads,
          id,
          timeKey(last, (r) => r.id),
          pageSize,
        ),
      pageSize,
    );
    const comments = pages<RowOf<typeof repo.commentsPage>>(
      (last) =>
        repo.commentsPage(
          reads,
          id,
          timeKey(last, (r) => r.id),
          pageSize,
        ),
      pageSize,
    );
    const likes = pages<RowOf<typeof repo.likesPage>>(
      (last) => repo.likesPage(reads, id, last?.post_id ?? null, pageSize),
      pageSize,
    );
    const bookmarks = pages<RowOf<typeof repo.bookmarksPage>>(
      (last) =>
        repo.bookmarksPage(
          reads,
          id,
          timeKey(last, (r) => r.post_id),
          pageSize,
        ),
      pageSize,
    );
    const notifications = pages<RowOf<typeof repo.notificationsPage>>(
      (last) =>
        repo.notificationsPage(
          reads,
          id,
          timeKey(last, (r) => r.id),
          pageSize,
        ),
      pageSize,
    );
    async function* follows(): AsyncGenerator<string> {
      yield '{\n  "following": ';
      yield* jsonArray(
        pages<RowOf<typeof repo.followingPage>>(
          (last) => repo.followingPage(reads, id, last?.id ?? null, pageSize),
          pageSize,
        ),
        member,
        '  ',
      );
      yield ',\n  "followers": ';
      yield* jsonArray(
        pages<RowOf<typeof repo.followersPage>>(
          (last) => repo.followersPage(reads, id, last?.id ?? null, pageSize),
          pageSize,
        ),
        member,
        '  ',
      );
      yield '\n}\n';
    }
    const array = <Row>(source: AsyncIterable<Row[]>, item: (row: Row) => unknown) =>
      textFile(
        (async function* withNewline() {
          yield* jsonArray(source, item);
          yield '\n';
        })(),
      );
    return [
      ['profile.json', () => Readable.from([Buffer.from(`${JSON.stringify(profile, null, 2)}\n`)])],
      [
        'posts.json',
        () =>
          array(posts, (post) => ({
            id: post.id,
            content: post.content,
            mediaURL: post.media_url,
            mediaAlt: post.media_alt,
            likeCount: post.like_count,
            commentCount: post.comment_count,
            createdAt: toIso(post.created_at),
            updatedAt: toIso(post.updated_at),
          })),
      ],
      [
        'comments.json',
        () =>
          array(comments, (comment) => ({
            id: comment.id,
            postId: comment.post_id,
            text: comment.text,
            upvoteCount: comment.upvote_count,
            downvoteCount: comment.downvote_count,
            createdAt: toIso(comment.created_at),
            updatedAt: toIso(comment.updated_at),
          })),
      ],
      [
        'likes.json',
        () => array(likes, (like) => ({ postId: like.post_id, likedAt: toIso(like.created_at) })),
      ],
      [
        'bookmarks.json',
        () =>
          array(bookmarks, (mark) => ({
            postId: mark.post_id,
            bookmarkedAt: toIso(mark.created_at),
          })),
      ],
      ['follows.json', () => textFile(follows())],
      [
        'notifications.json',
        () =>
          array(notifications, (note) => ({
            id: note.id,
            kind: note.kind,
            actor: { id: note.actor_id, username: note.actor_username },
            postId: note.post_id,
            commentId: note.comment_id,
            createdAt: toIso(note.created_at),
            read: note.read_at !== null,
          })),
      ],
    ];
  }

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

    for (const [name, make] of jsonFiles(row, now)) add(name, true, () => Promise.resolve(make()));

    // Images are stored compressed already; they are found (not read) ahead of the archive.
    const addImage = async (url: string) => {
      const key = mediaKeyOf(url);
      if (key !== null && (await media.has(url))) add(`media/${key}`, false, () => media.read(url));
    };
    const addImages = async () => {
      if (row.avatar_url !== null) await addImage(row.avatar_url);
      const urls = pages<string>(
        (last) => repo.postImagesPage(reads, row.id, last ?? null, IMAGE_PAGE_SIZE),
        IMAGE_PAGE_SIZE,
      );
      for await (const page of urls) {
        for (const url of page) {
          if (stopped) return;
          if (url !== row.avatar_url) await addImage(url);
        }
      }
    };
    addImages().then(
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
