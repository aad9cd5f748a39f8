import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Comment, Post } from '@perch/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app/app';
import { counterMismatches, deleteOwnAccount, NO_MISMATCH } from '../account/account-helpers';
import type { Member } from '../factories';
import { call, testConfig } from '../helpers';
import {
  addComment,
  bookmark,
  commentRequest,
  createMembers,
  createPost,
  deletePost,
  dislike,
  follow,
  like,
  MINIMAL,
  pause,
  postRequest,
  removeBookmark,
  unfollow,
  upvote,
} from '../social/social-helpers';
import {
  adminUrl,
  createTestDatabase,
  testDatabaseKind,
  type TestDatabase,
} from '../test-database';

/** Done: the answers of a write that cannot be refused here (a delete, a follow, a post). */
const DONE = new Set([200, 201]);
/** What a write under a post may answer: done, refused (done already) or the post gone. */
const UNDER_POST = new Set([200, 201, 400, 404]);
/** An account's deletion: done. */
const DELETED = new Set([204]);
/** A write of a member who deleted their account meanwhile: done, or their token refused. */
const OWN_TILL_GONE = new Set([200, 201, 401, 404]);
const POSTS = 40;
const TOGGLES = 16;

interface Answer {
  statusCode: number;
  body: string;
}

/** The answers a write may not give, as "what status: body". */
type Unexpected = string[];

/** Runs the writes one after another (a client waiting for each answer). */
async function inTurn<T>(
  unexpected: Unexpected,
  allowed: ReadonlySet<number>,
  items: readonly T[],
  write: (item: T, index: number) => [string, Promise<Answer>],
): Promise<void> {
  for (const [index, item] of items.entries()) {
    const [what, pending] = write(item, index);
    const answer = await pending;
    if (!allowed.has(answer.statusCode)) {
      unexpected.push(`${what} ${answer.statusCode}: ${answer.body.slice(0, 120)}`);
    }
  }
}

/** Reads Home once, which starts the member's timeline, and waits until it is built. */
async function startTimeline(app: FastifyInstance, member: Member): Promise<void> {
  const response = await call(app, { method: 'GET', url: '/api/posts/feed', token: member.token });
  expect(response.statusCode).toBe(200);
  await app.services.timelines.idle();
}

/**
 * Deadlocks PostgreSQL detected in the database since it was made. A backend reports its count
 * when it exits, so this waits for the app's connections to close first.
 */
async function deadlocksIn(database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    for (let tries = 0; tries < 100; tries += 1) {
      const open = await admin.query<{ n: string }>(
        'select count(*) as n from pg_stat_activity where datname = $1',
        [database],
      );
      if (Number(open.rows[0]?.n) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { rows } = await admin.query<{ deadlocks: string }>(
      'select deadlocks from pg_stat_database where datname = $1',
      [database],
    );
    return Number(rows[0]?.deadlocks ?? 0);
  } finally {
    await admin.end();
  }
}

/** The app on a database of its own, closed by `finish`, which answers the deadlocks it saw. */
function useRaceApp(): { readonly app: FastifyInstance; finish: () => Promise<number> } {
  let made: { app: FastifyInstance; database: TestDatabase; dataDir: string } | null = null;
  let open = false;
  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'perch-test-'));
    const database = await createTestDatabase(dataDir);
    const app = await buildApp(testConfig(dataDir), {
      database: database.handle,
      logger: false,
      validateResponses: true,
    });
    made = { app, database, dataDir };
    open = true;
  });
  afterAll(async () => {
    if (!made) return;
    if (open) await made.app.close();
    await made.database.drop();
    rmSync(made.dataDir, { recursive: true, force: true });
  });
  const current = () => {
    if (!made) throw new Error('the app is made in beforeAll');
    return made;
  };
  return {
    get app() {
      return current().app;
    },
    async finish() {
      const { app } = current();
      if (testDatabaseKind() !== 'postgres') return 0;
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(
        app.db,
      );
      open = false;
      await app.close();
      return deadlocksIn(rows[0]?.name ?? '');
    },
  };
}

describe('writes racing the deletion of posts', () => {
  const race = useRaceApp();

  it(
    'answers none with a server error, keeps every counter and deadlocks nowhere',
    { timeout: 120_000 },
    async () => {
      const { app } = race;
      const [author, f1, f2, f3, f4, liker, commenter] = await createMembers(app, 7);
      const followers = [f1, f2, f3, f4];
      for (const member of followers) {
        expect((await follow(app, member.token, author.user._id, MINIMAL)).statusCode).toBe(200);
        await startTimeline(app, member);
      }
      const posts: Post[] = [];
      for (let i = 0; i < POSTS; i += 1) {
        posts.push(await createPost(app, author.token, `#race post ${i}`));
      }
      const comments: Comment[] = [];
      for (const post of posts.filter((_, i) => i % 4 === 0)) {
        comments.push(await addComment(app, liker.token, post._id, 'first'));
      }

      // Each kind of write goes on in turn while the author deletes every post, newest first: the
      // writes that lock a post and a member's row meet in every order they might take them.
      const unexpected: Unexpected = [];
      const newestFirst = [...posts].reverse();
      await Promise.all([
        inTurn(unexpected, DONE, newestFirst, (post) => [
          'delete',
          deletePost(app, author.token, post._id, MINIMAL),
        ]),
        ...followers.map((member) =>
          inTurn(unexpected, DONE, Array.from({ length: TOGGLES }), (_, i) =>
            i % 2 === 0
              ? ['unfollow', unfollow(app, member.token, author.user._id, MINIMAL)]
              : ['follow', follow(app, member.token, author.user._id, MINIMAL)],
          ),
        ),
        inTurn(unexpected, UNDER_POST, [...posts, ...posts], (post, i) =>
          i < POSTS
            ? ['like', like(app, liker.token, post._id, MINIMAL)]
            : ['unlike', dislike(app, liker.token, post._id, MINIMAL)],
        ),
        inTurn(unexpected, UNDER_POST, [...posts, ...posts], (post, i) =>
          i < POSTS
            ? ['bookmark', bookmark(app, f1.token, post._id, MINIMAL)]
            : ['unbookmark', removeBookmark(app, f1.token, post._id, MINIMAL)],
        ),
        inTurn(unexpected, UNDER_POST, posts, (post) => [
          'comment',
          commentRequest(app, commenter.token, post._id, '#race a comment', MINIMAL),
        ]),
        inTurn(unexpected, UNDER_POST, comments, (comment) => [
          'vote',
          upvote(app, commenter.token, comment.postId, comment._id, MINIMAL),
        ]),
        inTurn(unexpected, DONE, Array.from({ length: 8 }), (_, i) => [
          'post',
          postRequest(app, author.token, { content: `#race new ${i}` }, MINIMAL),
        ]),
      ]);
      await app.services.relay.drain();
      await app.services.timelines.idle();

      const mismatches = await counterMismatches(app.db);
      const deadlocks = await race.finish();
      expect({ unexpected, mismatches, deadlocks }).toEqual({
        unexpected: [],
        mismatches: NO_MISMATCH,
        deadlocks: 0,
      });
    },
  );
});

describe('members deleting their accounts while they delete their posts', () => {
  const race = useRaceApp();

  it(
    'answers none with a server error, keeps every counter and deadlocks nowhere',
    { timeout: 120_000 },
    async () => {
      const { app } = race;
      const authors = await createMembers(app, 3);
      const [reader, liker] = await createMembers(app, 2);
      const postsOf: Post[][] = [];
      for (const author of authors) {
        await follow(app, reader.token, author.user._id, MINIMAL);
        const posts: Post[] = [];
        for (let i = 0; i < 12; i += 1) {
          posts.push(await createPost(app, author.token, `#gone post ${i}`));
        }
        postsOf.push(posts);
      }
      await startTimeline(app, reader);

      // Each author deletes their posts, newest first, and their account among them (the
      // account's deletion takes their posts before their row, the post's deletion the same).
      const unexpected: Unexpected = [];
      await Promise.all(
        authors.flatMap((author, a) => {
          const posts = postsOf[a] ?? [];
          return [
            inTurn(unexpected, OWN_TILL_GONE, [...posts].reverse(), (post) => [
              'delete',
              deletePost(app, author.token, post._id, MINIMAL),
            ]),
            pause(20 * (a + 1)).then(() =>
              inTurn(unexpected, DELETED, [author], (member) => [
                'delete account',
                deleteOwnAccount(app, member),
              ]),
            ),
            inTurn(unexpected, UNDER_POST, posts, (post) => [
              'like',
              like(app, liker.token, post._id, MINIMAL),
            ]),
            inTurn(unexpected, UNDER_POST, Array.from({ length: 8 }), (_, i) =>
              i % 2 === 0
                ? ['unfollow', unfollow(app, reader.token, author.user._id, MINIMAL)]
                : ['follow', follow(app, reader.token, author.user._id, MINIMAL)],
            ),
          ];
        }),
      );
      await app.services.relay.drain();
      await app.services.timelines.idle();

      const mismatches = await counterMismatches(app.db);
      const deadlocks = await race.finish();
      expect({ unexpected, mismatches, deadlocks }).toEqual({
        unexpected: [],
        mismatches: NO_MISMATCH,
        deadlocks: 0,
      });
    },
  );
});
