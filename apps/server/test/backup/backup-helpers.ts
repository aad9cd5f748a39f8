import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Member } from '../factories';
import { call } from '../helpers';
import { MINIMAL, commentRequest, like, pause, postRequest } from '../social/social-helpers';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const cliEntry = fileURLToPath(new URL('../../src/cli/backup.ts', import.meta.url));

/** Writes the server acknowledged (answered 2xx). */
export interface Acknowledged {
  posts: string[];
  likes: { postId: string; userId: string }[];
  comments: string[];
}

export interface Writing {
  /** What was acknowledged before markBackupStarted was called. */
  before: Acknowledged;
  markBackupStarted: () => void;
  /** Writes acknowledged since markBackupStarted. */
  writesSince: () => number;
  /** Resolves once at least `count` posts were acknowledged. */
  waitForPosts: (count: number) => Promise<void>;
  /** Stops the writers; rejects if one of them met an answer it should not have. */
  stop: () => Promise<void>;
}

function expectSuccessOrRefusal(response: LightMyRequestResponse): boolean {
  expect(response.statusCode, response.body).toBeLessThan(500);
  return response.statusCode >= 200 && response.statusCode < 300;
}

/**
 * One writer per member, all at once: each posts, likes the newest post of the next member and
 * comments on it now and then, recording what was acknowledged before the backup started.
 */
export function startWriting(app: FastifyInstance, members: Member[]): Writing {
  const before: Acknowledged = { posts: [], likes: [], comments: [] };
  const newest = new Map<string, string>();
  let started = false;
  let since = 0;
  let stopped = false;
  const acknowledge = (record: () => void) => {
    if (started) since += 1;
    else record();
  };

  const writer = async (index: number) => {
    const member = members[index];
    const next = members[(index + 1) % members.length];
    if (!member || !next) throw new Error('no such member');
    for (let round = 0; !stopped; round += 1) {
      const content = `${member.user.username} says ${round}`;
      const posted = await postRequest(app, member.token, { content, mediaURL: null }, MINIMAL);
      expect(posted.statusCode, posted.body).toBe(201);
      const postId = posted.json<{ post: { _id: string } }>().post._id;
      newest.set(member.user._id, postId);
      acknowledge(() => before.posts.push(postId));

      const target = newest.get(next.user._id);
      if (target === undefined) continue;
      if (round % 2 === 0) {
        const liked = await like(app, member.token, target);
        if (expectSuccessOrRefusal(liked)) {
          acknowledge(() => before.likes.push({ postId: target, userId: member.user._id }));
        }
      }
      if (round % 3 === 0) {
        const commented = await commentRequest(app, member.token, target, `re ${round}`, MINIMAL);
        if (expectSuccessOrRefusal(commented)) {
          const commentId = commented.json<{ comment: { _id: string } }>().comment._id;
          acknowledge(() => before.comments.push(commentId));
        }
      }
    }
  };
  const writers = Promise.all(members.map((_, index) => writer(index)));
  // One writer failing stops the others; stop() reports why.
  writers.catch(() => {
    stopped = true;
  });

  return {
    before,
    markBackupStarted: () => {
      started = true;
    },
    writesSince: () => since,
    waitForPosts: async (count) => {
      while (before.posts.length < count) {
        if (stopped) throw new Error('the writers stopped');
        await pause(5);
      }
    },
    stop: async () => {
      stopped = true;
      await writers;
    },
  };
}

/** Asserts that an instance holds every acknowledged write, consistently, and serves the image. */
export async function expectRestored(
  app: FastifyInstance,
  dataDir: string,
  acknowledged: Acknowledged,
  imageUrl: string,
): Promise<void> {
  const integrity = await sql<{
    integrity_check: string;
  }>`pragma integrity_check`.execute(app.db);
  expect(integrity.rows).toEqual([{ integrity_check: 'ok' }]);

  const posts = new Set((await app.db.selectFrom('posts').select('id').execute()).map((p) => p.id));
  expect(acknowledged.posts.filter((id) => !posts.has(id))).toEqual([]);
  const likes = new Set(
    (await app.db.selectFrom('likes').select(['post_id', 'user_id']).execute()).map(
      (l) => `${l.post_id}/${l.user_id}`,
    ),
  );
  expect(acknowledged.likes.filter((l) => !likes.has(`${l.postId}/${l.userId}`))).toEqual([]);
  const comments = new Set(
    (await app.db.selectFrom('comments').select('id').execute()).map((c) => c.id),
  );
  expect(acknowledged.comments.filter((id) => !comments.has(id))).toEqual([]);

  const postCounters = await app.db
    .selectFrom('posts')
    .select([
      'id',
      'like_count',
      'comment_count',
      sql<number>`(select count(*) from likes where likes.post_id = posts.id)`.as('likes'),
      sql<number>`(select count(*) from comments where comments.post_id = posts.id)`.as('comments'),
    ])
    .execute();
  expect(
    postCounters.filter((p) => p.likes !== p.like_count || p.comments !== p.comment_count),
  ).toEqual([]);
  const userCounters = await app.db
    .selectFrom('users')
    .select([
      'id',
      'posts_count',
      'followers_count',
      'following_count',
      sql<number>`(select count(*) from posts where posts.user_id = users.id)`.as('posts'),
      sql<number>`(select count(*) from follows where followee_id = users.id)`.as('followers'),
      sql<number>`(select count(*) from follows where follower_id = users.id)`.as('following'),
    ])
    .execute();
  expect(
    userCounters.filter(
      (u) =>
        u.posts !== u.posts_count ||
        u.followers !== u.followers_count ||
        u.following !== u.following_count,
    ),
  ).toEqual([]);

  expect(existsSync(path.join(dataDir, ...imageUrl.split('/')))).toBe(true);
  const image = await call(app, { method: 'GET', url: imageUrl });
  expect(image.statusCode).toBe(200);
  expect(image.headers['content-type']).toMatch(/^image\//);
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run backup` / `npm run restore` as a process of its own, with exactly this env. */
export function runBackupCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', cliEntry, ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}
