import { Readable } from 'node:stream';
import type { PreviewCard } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../platform/db/schema';
import { toIso } from '../../lib/time';
import { decodePoll, type PollData } from '../../read-model/post/poll-view';
import * as repo from './export.repository';
import { albumOf } from '../posts/album.codec';

type Db = Kysely<Database>;
/** The row type of a page query. */
type RowOf<Query extends (...args: never[]) => Promise<unknown[]>> = Awaited<
  ReturnType<Query>
>[number];

/** One file of the archive, a stream made when the archive comes to it. */
export type ExportFile = [name: string, open: () => Readable];

/** Pages of rows, each read after the previous page's last row, until a page comes back short. */
export async function* pages<Row>(
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

/** A file holding one JSON array, its items read a page at a time. */
function arrayFile<Row>(source: AsyncIterable<Row[]>, item: (row: Row) => unknown): Readable {
  return textFile(
    (async function* withNewline() {
      yield* jsonArray(source, item);
      yield '\n';
    })(),
  );
}

const followed = (row: { id: string; username: string; created_at: number }) => ({
  id: row.id,
  username: row.username,
  followedAt: toIso(row.created_at),
});

/** The key of the page after `last`, for pages read in (created_at, key) order. */
const timeKey = <R extends { created_at: number }>(last: R | undefined, key: (r: R) => string) =>
  last ? ([last.created_at, key(last)] as const) : null;

function profileFile(row: UserRow, now: Date): Readable {
  const profile = {
    id: row.id,
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
  return Readable.from([Buffer.from(`${JSON.stringify(profile, null, 2)}\n`)]);
}

function postsFile(reads: Db, id: string, size: number): Readable {
  const rows = pages<RowOf<typeof repo.postsPage>>(
    (last) =>
      repo.postsPage(
        reads,
        id,
        timeKey(last, (r) => r.id),
        size,
      ),
    size,
  );
  return arrayFile(rows, (post) => ({
    id: post.id,
    content: post.content,
    mediaURL: post.media_url,
    mediaAlt: post.media_alt,
    // Every image of the post in order, each with its description.
    media: albumOf(post).map(({ url, alt }) => ({ url, alt })),
    contentWarning: post.content_warning,
    sensitive: post.sensitive === 1,
    // The page the post linked to and what it said of itself; its image stays on this server.
    card: post.preview_card === null ? null : (JSON.parse(post.preview_card) as PreviewCard),
    poll: exportedPoll(decodePoll(post.poll)),
    likeCount: post.like_count,
    commentCount: post.comment_count,
    createdAt: toIso(post.created_at),
    updatedAt: toIso(post.updated_at),
    // The post it quoted, by id (perhaps deleted since); null for none.
    quoteId: post.quote_id,
  }));
}

/** A post's poll with every count, as its author sees it. */
function exportedPoll(poll: PollData | null) {
  if (poll === null) return null;
  return {
    id: poll.id,
    multiple: poll.multiple,
    expiresAt: toIso(poll.expiresAt),
    votersCount: poll.voters,
    options: poll.options.map((title, position) => ({
      title,
      votesCount: poll.votes[position] ?? 0,
    })),
  };
}

/** The polls the member voted in, with the options they chose (positions from 0). */
function pollVotesFile(reads: Db, id: string, size: number): Readable {
  async function* votes(): AsyncGenerator<
    { pollId: string; postId: string; votedAt: string; choices: number[] }[]
  > {
    for await (const rows of pages<RowOf<typeof repo.pollVotesPage>>(
      (last) => repo.pollVotesPage(reads, id, last?.poll_id ?? null, size),
      size,
    )) {
      const choices = new Map<string, number[]>();
      const chosen = await repo.pollChoicesAmong(
        reads,
        id,
        rows.map((row) => row.poll_id),
      );
      for (const row of chosen) {
        choices.set(row.poll_id, [...(choices.get(row.poll_id) ?? []), row.position]);
      }
      yield rows.map((row) => ({
        pollId: row.poll_id,
        postId: row.post_id,
        votedAt: toIso(row.voted_at),
        choices: choices.get(row.poll_id) ?? [],
      }));
    }
  }
  return arrayFile(votes(), (vote) => vote);
}

function commentsFile(reads: Db, id: string, size: number): Readable {
  const rows = pages<RowOf<typeof repo.commentsPage>>(
    (last) =>
      repo.commentsPage(
        reads,
        id,
        timeKey(last, (r) => r.id),
        size,
      ),
    size,
  );
  return arrayFile(rows, (comment) => ({
    id: comment.id,
    postId: comment.post_id,
    text: comment.text,
    upvoteCount: comment.upvote_count,
    downvoteCount: comment.downvote_count,
    createdAt: toIso(comment.created_at),
    updatedAt: toIso(comment.updated_at),
  }));
}

function likesFile(reads: Db, id: string, size: number): Readable {
  const rows = pages<RowOf<typeof repo.likesPage>>(
    (last) => repo.likesPage(reads, id, last?.post_id ?? null, size),
    size,
  );
  return arrayFile(rows, (like) => ({ postId: like.post_id, likedAt: toIso(like.created_at) }));
}

function bookmarksFile(reads: Db, id: string, size: number): Readable {
  const rows = pages<RowOf<typeof repo.bookmarksPage>>(
    (last) =>
      repo.bookmarksPage(
        reads,
        id,
        timeKey(last, (r) => r.post_id),
        size,
      ),
    size,
  );
  return arrayFile(rows, (mark) => ({
    postId: mark.post_id,
    bookmarkedAt: toIso(mark.created_at),
  }));
}

function repostsFile(reads: Db, id: string, size: number): Readable {
  const rows = pages<RowOf<typeof repo.repostsPage>>(
    (last) => repo.repostsPage(reads, id, last?.id ?? null, size),
    size,
  );
  return arrayFile(rows, (row) => ({ postId: row.post_id, repostedAt: toIso(row.created_at) }));
}

/** At most PINNED_POSTS_MAX rows: read at once. */
function pinsFile(reads: Db, id: string): Readable {
  async function* pins(): AsyncGenerator<RowOf<typeof repo.pinsOf>[]> {
    yield await repo.pinsOf(reads, id);
  }
  return arrayFile(pins(), (pin) => ({ postId: pin.post_id, pinnedAt: toIso(pin.pinned_at) }));
}

function followsFile(reads: Db, id: string, size: number): Readable {
  async function* follows(): AsyncGenerator<string> {
    yield '{\n  "following": ';
    yield* jsonArray(
      pages<RowOf<typeof repo.followingPage>>(
        (last) => repo.followingPage(reads, id, last?.id ?? null, size),
        size,
      ),
      followed,
      '  ',
    );
    yield ',\n  "followers": ';
    yield* jsonArray(
      pages<RowOf<typeof repo.followersPage>>(
        (last) => repo.followersPage(reads, id, last?.id ?? null, size),
        size,
      ),
      followed,
      '  ',
    );
    yield '\n}\n';
  }
  return textFile(follows());
}

function notificationsFile(reads: Db, id: string, size: number): Readable {
  const rows = pages<RowOf<typeof repo.notificationsPage>>(
    (last) =>
      repo.notificationsPage(
        reads,
        id,
        timeKey(last, (r) => r.id),
        size,
      ),
    size,
  );
  return arrayFile(rows, (note) => ({
    id: note.id,
    kind: note.kind,
    actor: { id: note.actor_id, username: note.actor_username },
    postId: note.post_id,
    commentId: note.comment_id,
    createdAt: toIso(note.created_at),
    read: note.read_at !== null,
  }));
}

/** The archive's JSON files, each read from the database a page at a time as it is zipped. */
export function exportFiles(reads: Db, row: UserRow, now: Date, pageSize: number): ExportFile[] {
  const id = row.id;
  return [
    ['profile.json', () => profileFile(row, now)],
    ['posts.json', () => postsFile(reads, id, pageSize)],
    ['comments.json', () => commentsFile(reads, id, pageSize)],
    ['likes.json', () => likesFile(reads, id, pageSize)],
    ['bookmarks.json', () => bookmarksFile(reads, id, pageSize)],
    ['pins.json', () => pinsFile(reads, id)],
    ['reposts.json', () => repostsFile(reads, id, pageSize)],
    ['poll-votes.json', () => pollVotesFile(reads, id, pageSize)],
    ['follows.json', () => followsFile(reads, id, pageSize)],
    ['notifications.json', () => notificationsFile(reads, id, pageSize)],
  ];
}
