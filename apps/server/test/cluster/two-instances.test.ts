/**
 * Two real server processes (node --import tsx apps/server/src/server.ts) on one PostgreSQL
 * database and one Redis of this file's own: events written through one reach streams on the
 * other, rate limits count across both, and a Redis outage costs neither writes nor events.
 *
 * Runs in the server:postgres project only; needs redis-server on PATH (skipped without it,
 * unless REQUIRE_REDIS=1).
 */
import { performance } from 'node:perf_hooks';
import type { SignupResponse } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  redisRequired,
  redisServerInstalled,
  startPrivateRedis,
  type PrivateRedis,
} from '../redis';
import { freePort } from '../ports';
import { testDatabaseKind } from '../test-database';
import {
  api,
  createClusterDatabase,
  openEventStream,
  removeDir,
  sleep,
  startServer,
  tempDir,
  tsxInstalled,
  waitForRedisClients,
  withRedis,
  type ApiAnswer,
  type ClusterDatabase,
  type EventStream,
  type ServerProcess,
  type SseFrame,
} from './cluster-helpers';

const AUTH_RATE_LIMIT = 6;
const JWT_SECRET = 'cluster-test-secret-shared-by-both-instances-0123456789';
const PASSWORD = 'correct horse battery';
/** What the brief promises for a live event from one instance to a stream on the other. */
const LIVE_DELIVERY_MS = 1000;
/** How long Redis stays away in the outage test. */
const OUTAGE_MS = 4000;

const onPostgres = testDatabaseKind() === 'postgres';
const canRun = onPostgres && redisServerInstalled() && tsxInstalled();
if (onPostgres && !canRun) {
  const reason = !tsxInstalled()
    ? 'tsx is not installed'
    : 'redis-server is not on PATH (this file starts one of its own)';
  if (redisRequired()) throw new Error(`REQUIRE_REDIS=1 but ${reason}`);
  console.info(`cluster tests skipped: ${reason}`);
}

interface Member {
  id: string;
  username: string;
  token: string;
}

let database: ClusterDatabase | undefined;
let redis: PrivateRedis | undefined;
let a: ServerProcess | undefined;
let b: ServerProcess | undefined;
const dataDirs: string[] = [];
const streams: EventStream[] = [];
let alice: Member;
let bob: Member;
let carol: Member;
/** Bob's session cookie, got by logging in on B. */
let bobCookie: string;

const serverA = () => {
  if (!a) throw new Error('instance A is not running');
  return a;
};
const serverB = () => {
  if (!b) throw new Error('instance B is not running');
  return b;
};

function expectStatus(answer: ApiAnswer, status: number | '2xx', what: string): void {
  if (status === '2xx') {
    expect(answer.status, `${what}: ${answer.text.slice(0, 500)}`).toBeGreaterThanOrEqual(200);
    expect(answer.status, `${what}: ${answer.text.slice(0, 500)}`).toBeLessThan(300);
  } else {
    expect(answer.status, `${what}: ${answer.text.slice(0, 500)}`).toBe(status);
  }
}

async function signup(server: ServerProcess, username: string): Promise<Member> {
  const answer = await api(server.base, '/api/auth/signup', {
    body: {
      firstName: 'Cluster',
      lastName: username,
      email: `${username}@example.com`,
      username,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    },
  });
  expectStatus(answer, 201, `signup of ${username} on ${server.name}`);
  const body = answer.body as SignupResponse;
  return { id: body.createdUser._id, username, token: body.encodedToken };
}

async function createPost(server: ServerProcess, member: Member, content: string) {
  const answer = await api(server.base, '/api/posts', {
    token: member.token,
    headers: { prefer: 'return=minimal' },
    body: { postData: { content } },
  });
  return { answer, postId: (answer.body as { post?: { _id: string } } | null)?.post?._id ?? '' };
}

const like = (server: ServerProcess, member: Member, postId: string) =>
  api(server.base, `/api/posts/like/${postId}`, {
    method: 'POST',
    token: member.token,
    headers: { prefer: 'return=minimal' },
  });

async function openStream(server: ServerProcess, lastEventId?: string): Promise<EventStream> {
  const stream = await openEventStream(server.base, { cookie: bobCookie, lastEventId });
  streams.push(stream);
  return stream;
}

const payloadOf = (frame: SseFrame) => frame.data as Record<string, unknown>;
const eventIds = (frames: SseFrame[]) =>
  frames.filter((frame) => frame.id !== null && frame.event !== 'ready').map((f) => Number(f.id));
const ms = (value: number) => `${value.toFixed(1)} ms`;

function dumpServerLogs(): void {
  for (const server of [a, b]) {
    if (server)
      console.error(`--- output of ${server.name} ---\n${server.output().slice(-20_000)}`);
  }
}

/** Log records of either server that say a request failed (5xx) or events went astray. */
function serverErrors(): Record<string, unknown>[] {
  return [a, b]
    .flatMap((server) => server?.logRecords() ?? [])
    .filter(
      (record) =>
        record.msg === 'unhandled error' ||
        record.msg === 'could not open an event stream' ||
        record.msg === 'could not read the outbox' ||
        record.msg === 'could not deliver an event',
    );
}

/** How many times each server logged each message (warn and above). */
function logSummary(): Record<string, Record<string, number>> {
  const summary: Record<string, Record<string, number>> = {};
  for (const server of [a, b]) {
    if (!server) continue;
    const counts: Record<string, number> = {};
    for (const record of server.logRecords()) {
      const key = `${String(record.level)} ${String(record.msg)}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    summary[server.name] = counts;
  }
  return summary;
}

describe.skipIf(!canRun)('two server processes on one PostgreSQL database and one Redis', () => {
  beforeAll(async () => {
    database = await createClusterDatabase();
    redis = await startPrivateRedis();
    // Should this process end without afterAll, its redis-server goes too (the kill is sync).
    const privateRedis = redis;
    process.once('exit', () => void privateRedis.kill());
    const env = (name: string, port: number): Record<string, string> => {
      const dataDir = tempDir(`perch-cluster-${name}-`);
      dataDirs.push(dataDir);
      return {
        DATABASE_URL: database?.url ?? '',
        REDIS_URL: redis?.url ?? '',
        JWT_SECRET,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED: 'none',
        LOG_LEVEL: 'warn',
        WEB_DIR: '',
        AUTH_RATE_LIMIT: String(AUTH_RATE_LIMIT),
        PASSWORD_HASH_COST: '1024',
        MEDIA_SWEEP_MINUTES: '0',
      };
    };
    // A migrates the empty database; B starts once A answers, on the migrated schema.
    a = await startServer({ name: 'A', env: env('a', await freePort()) });
    b = await startServer({ name: 'B', env: env('b', await freePort()) });
    // Both hold a command and a subscriber connection and listen on the event channel.
    await waitForRedisClients(redis.url, 2, 10_000);

    alice = await signup(a, 'alice');
    carol = await signup(a, 'carol');
    bob = await signup(b, 'bob');
    // Bob follows Alice first, so that her new posts reach his stream.
    expectStatus(
      await api(b.base, `/api/users/follow/${alice.id}`, { method: 'POST', token: bob.token }),
      '2xx',
      'bob follows alice',
    );
    const login = await api(b.base, '/api/auth/login', {
      body: { username: 'bob', password: PASSWORD },
    });
    expectStatus(login, 200, 'login of bob on B');
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('perch_session='));
    if (!cookie) throw new Error(`login on B set no session cookie: ${login.text}`);
    bobCookie = cookie.split(';')[0] ?? '';
  }, 120_000);

  afterAll(async () => {
    const failures: unknown[] = [];
    const attempt = async (work: () => Promise<void>) => {
      try {
        await work();
      } catch (error) {
        failures.push(error);
      }
    };
    // SIGTERM with streams still open: each server ends them and exits on its own.
    const stopping = performance.now();
    await Promise.all([attempt(async () => a?.stop()), attempt(async () => b?.stop())]);
    const exits = [a, b].flatMap((s) => (s ? [`${s.name} ${String(s.exitStatus())}`] : []));
    console.info(
      `[cluster] SIGTERM → both exited in ${ms(performance.now() - stopping)}: ${exits.join(', ')}`,
    );
    for (const stream of streams) stream.close();
    await attempt(async () => redis?.dispose());
    await attempt(async () => database?.drop());
    for (const dir of dataDirs) removeDir(dir);
    if (failures.length > 0) throw failures[0];
  }, 60_000);

  it('delivers a like, a comment, a follow and a new post written through A to a stream on B', async ({
    onTestFailed,
  }) => {
    onTestFailed(dumpServerLogs);
    const A = serverA();
    const B = serverB();
    const target = await createPost(A, alice, 'A post to like and comment on');
    expectStatus(target.answer, 201, 'alice posts on A');

    const stream = await openStream(B);
    await stream.waitFor('ready', (frame) => frame.event === 'ready', 5000);

    const latencies: Record<string, number> = {};
    /** Runs `write` on A and waits for the event `match` finds on B's stream; answers the latency. */
    const measure = async (
      name: string,
      write: () => Promise<ApiAnswer>,
      match: (frame: SseFrame) => boolean,
    ): Promise<SseFrame> => {
      const from = stream.frames.length;
      const started = performance.now();
      const answer = await write();
      expectStatus(answer, '2xx', name);
      const frame = await stream.waitFor(`${name} on B`, match, LIVE_DELIVERY_MS + 4000, from);
      latencies[name] = frame.at - started;
      return frame;
    };

    await measure(
      'like',
      () => like(A, carol, target.postId),
      (f) =>
        f.event === 'post.liked' &&
        payloadOf(f).postId === target.postId &&
        payloadOf(f).userId === carol.id,
    );
    let commentId = '';
    await measure(
      'comment',
      async () => {
        const answer = await api(A.base, `/api/comments/add/${target.postId}`, {
          token: carol.token,
          headers: { prefer: 'return=minimal' },
          body: { commentData: { text: 'Seen from the other instance?' } },
        });
        commentId = (answer.body as { comment?: { _id: string } } | null)?.comment?._id ?? '';
        return answer;
      },
      (f) => f.event === 'comment.added' && payloadOf(f).commentId === commentId,
    );
    const notificationsFrom = stream.frames.length;
    const followStarted = performance.now();
    await measure(
      'follow',
      () => api(A.base, `/api/users/follow/${bob.id}`, { method: 'POST', token: carol.token }),
      (f) =>
        f.event === 'member.followed' &&
        payloadOf(f).followerId === carol.id &&
        payloadOf(f).followeeId === bob.id,
    );
    let newPostId = '';
    await measure(
      'new post',
      async () => {
        const created = await createPost(A, alice, 'Fresh from instance A');
        newPostId = created.postId;
        return created.answer;
      },
      (f) =>
        f.event === 'post.created' &&
        payloadOf(f).postId === newPostId &&
        payloadOf(f).authorId === alice.id,
    );
    // Carol's follow gives Bob a notification: written by whichever process's consumer took it.
    const notified = await stream.waitFor(
      'notifications.changed for bob',
      (f) => f.event === 'notifications.changed' && payloadOf(f).userId === bob.id,
      5000,
      notificationsFrom,
    );
    const notificationMs = notified.at - followStarted;

    console.info(
      `[cluster] A→B live delivery (write sent on A → frame parsed on B): ${Object.entries(
        latencies,
      )
        .map(([name, value]) => `${name} ${ms(value)}`)
        .join(', ')}; follow → bob's notifications.changed ${ms(notificationMs)}`,
    );
    for (const [name, value] of Object.entries(latencies)) {
      expect(value, `${name} took ${ms(value)} to reach B`).toBeLessThan(LIVE_DELIVERY_MS);
    }
    // In id order, each once.
    const ids = eventIds(stream.frames);
    expect(ids).toEqual([...new Set(ids)].sort((x, y) => x - y));
    expect(serverErrors()).toEqual([]);
  }, 60_000);

  it('keeps writes and reads answering while Redis is down, then catches up and is live again', async ({
    onTestFailed,
  }) => {
    onTestFailed(dumpServerLogs);
    const A = serverA();
    const B = serverB();
    if (!redis) throw new Error('no Redis');
    const live = await openStream(B);
    const liveReady = await live.waitFor('ready', (f) => f.event === 'ready', 5000);
    // A second stream on B that goes away before the outage and comes back on A with
    // Last-Event-ID.
    const leaving = await openStream(B);
    const leavingReady = await leaving.waitFor('ready', (f) => f.event === 'ready', 5000);
    const lastSeen = leavingReady.id;
    expect(lastSeen).not.toBeNull();
    expect(Number(lastSeen)).toBeGreaterThanOrEqual(Number(liveReady.id));
    leaving.close();
    // A stream on A, the instance written through: its own writes reach it without Redis.
    const onA = await openStream(A);
    await onA.waitFor('ready on A', (f) => f.event === 'ready', 5000);

    // --- Redis goes away (SIGKILL, as a crash) ---
    await redis.kill();
    const outageStarted = performance.now();
    const writes: { name: string; answer: ApiAnswer; at: number }[] = [];
    const postIds: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const at = performance.now();
      const created = await createPost(A, alice, `Written while Redis is down #${String(i)}`);
      writes.push({ name: `post ${String(i)}`, answer: created.answer, at });
      postIds.push(created.postId);
    }
    const likedAt = new Map<string, number>();
    for (const postId of postIds) {
      const at = performance.now();
      likedAt.set(postId, at);
      writes.push({ name: `like ${postId}`, answer: await like(A, carol, postId), at });
    }
    for (const write of writes)
      expectStatus(write.answer, '2xx', `${write.name} during the outage`);

    // B reads the outbox on its own timer: A's events reach B's stream without any signal.
    const pollLatencies: number[] = [];
    for (const [index, postId] of postIds.entries()) {
      const created = await live.waitFor(
        `post.created ${postId} on B during the outage`,
        (f) => f.event === 'post.created' && payloadOf(f).postId === postId,
        5000,
      );
      const liked = await live.waitFor(
        `post.liked ${postId} on B during the outage`,
        (f) =>
          f.event === 'post.liked' &&
          payloadOf(f).postId === postId &&
          payloadOf(f).userId === carol.id,
        5000,
      );
      pollLatencies.push(
        created.at - (writes[index]?.at ?? 0),
        liked.at - (likedAt.get(postId) ?? 0),
      );
    }

    // Writes through B, and the rate-limited login, which lets requests through rather than
    // failing while its store is away.
    const commentAt = performance.now();
    const comment = await api(B.base, `/api/comments/add/${postIds[0] ?? ''}`, {
      token: bob.token,
      headers: { prefer: 'return=minimal' },
      body: { commentData: { text: 'Commented on B while Redis is down' } },
    });
    writes.push({ name: 'comment on B', answer: comment, at: commentAt });
    const loginAt = performance.now();
    const login = await api(A.base, '/api/auth/login', {
      body: { username: 'bob', password: PASSWORD },
    });
    writes.push({ name: 'login on A', answer: login, at: loginAt });
    expectStatus(comment, 201, 'comment on B during the outage');
    expectStatus(login, 200, 'login on A during the outage');
    const slowestWrite = Math.max(...writes.map((write) => write.answer.ms));
    expect(slowestWrite, 'no request waits on the missing Redis').toBeLessThan(2000);
    const ownComment = await live.waitFor(
      'comment.added written on B',
      (f) => f.event === 'comment.added' && payloadOf(f).userId === bob.id,
      5000,
    );
    const ownCommentMs = ownComment.at - commentAt;
    expect(ownCommentMs).toBeLessThan(LIVE_DELIVERY_MS);

    // Reads answer on both instances.
    for (const server of [A, B]) {
      expectStatus(await api(server.base, '/api/health'), 200, `health on ${server.name}`);
      expectStatus(await api(server.base, '/api/posts'), 200, `posts on ${server.name}`);
    }
    const feed = await api(B.base, '/api/posts/feed', { token: bob.token });
    expectStatus(feed, 200, "bob's feed on B");
    const feedIds = (feed.body as { posts: { _id: string }[] }).posts.map((post) => post._id);
    expect(feedIds).toContain(postIds[postIds.length - 1]);

    // A hears its own writes at once, Redis or not.
    const lastPostOnA = await onA.waitFor(
      'the last post.created on A during the outage',
      (f) => f.event === 'post.created' && payloadOf(f).postId === postIds[postIds.length - 1],
      5000,
    );
    const localMs = lastPostOnA.at - (writes[postIds.length - 1]?.at ?? 0);
    expect(localMs).toBeLessThan(LIVE_DELIVERY_MS);
    // Long enough for both servers to reach their longest pause between reconnection attempts.
    await sleep(Math.max(0, OUTAGE_MS - (performance.now() - outageStarted)));
    const outageMs = performance.now() - outageStarted;

    // --- Redis comes back on the same port ---
    const restartAt = performance.now();
    await redis.start();
    await waitForRedisClients(redis.url, 2, 15_000);
    const reconnectMs = performance.now() - restartAt;

    // A stream that left B reconnects to A with Last-Event-ID: what it missed, in order, once.
    const back = await openStream(A, lastSeen ?? undefined);
    const expected = eventIds(live.frames).filter((id) => id > Number(lastSeen));
    const newest = expected[expected.length - 1] ?? 0;
    expect(expected.length).toBeGreaterThanOrEqual(21);
    await back.waitFor(
      `replay up to ${String(newest)} on A`,
      (f) => f.id !== null && Number(f.id) >= newest,
      5000,
    );
    expect(back.frames[0]?.event).toBe('ready');
    expect(back.frames.some((f) => f.event === 'reset')).toBe(false);
    expect(eventIds(back.frames).filter((id) => id <= newest)).toEqual(expected);

    // Live again, both ways: A → B and B → A.
    let fromLive = live.frames.length;
    let started = performance.now();
    const afterPost = await createPost(A, alice, 'Redis is back');
    expectStatus(afterPost.answer, 201, 'post on A after the restart');
    const aToB =
      (
        await live.waitFor(
          'post.created on B after the restart',
          (f) => f.event === 'post.created' && payloadOf(f).postId === afterPost.postId,
          5000,
          fromLive,
        )
      ).at - started;
    const fromBack = back.frames.length;
    started = performance.now();
    expectStatus(await like(B, bob, afterPost.postId), 201, 'bob likes on B after the restart');
    const bToA =
      (
        await back.waitFor(
          'post.liked on A after the restart',
          (f) =>
            f.event === 'post.liked' &&
            payloadOf(f).postId === afterPost.postId &&
            payloadOf(f).userId === bob.id,
          5000,
          fromBack,
        )
      ).at - started;
    fromLive = live.frames.length;
    started = performance.now();
    expectStatus(await like(A, carol, afterPost.postId), 201, 'carol likes on A after the restart');
    const aToBAgain =
      (
        await live.waitFor(
          'post.liked on B after the restart',
          (f) =>
            f.event === 'post.liked' &&
            payloadOf(f).postId === afterPost.postId &&
            payloadOf(f).userId === carol.id,
          5000,
          fromLive,
        )
      ).at - started;

    console.info(
      `[cluster] Redis outage of ${ms(outageMs)}: ${String(writes.length)} requests ` +
        `(20 writes on A, a comment on B, a login on A) all 2xx ` +
        `(slowest ${ms(slowestWrite)}); A's own stream ${ms(localMs)}, B's own ${ms(ownCommentMs)}; ` +
        `A→B by B's outbox poll: ` +
        `max ${ms(Math.max(...pollLatencies))}, median ${ms(median(pollLatencies))}; ` +
        `both instances back on Redis ${ms(reconnectMs)} after the restart; ` +
        `live again: A→B post ${ms(aToB)}, B→A like ${ms(bToA)}, A→B like ${ms(aToBAgain)}; ` +
        `Last-Event-ID replay on A: ${String(expected.length)} events`,
    );
    for (const value of [aToB, bToA, aToBAgain]) expect(value).toBeLessThan(LIVE_DELIVERY_MS);
    for (const stream of [live, back]) {
      const ids = eventIds(stream.frames);
      expect(ids).toEqual([...new Set(ids)].sort((x, y) => x - y));
    }
    expect(serverErrors()).toEqual([]);
    expect(A.exited() || B.exited()).toBe(false);
    console.info(`[cluster] what the servers logged so far: ${JSON.stringify(logSummary())}`);
  }, 90_000);

  it('counts failed logins across both instances and answers 429 in the error shape', async ({
    onTestFailed,
  }) => {
    onTestFailed(dumpServerLogs);
    const A = serverA();
    const B = serverB();
    if (!redis) throw new Error('no Redis');
    const url = redis.url;
    // Whatever earlier tests did, the counters start from nothing (they live in this Redis only).
    await waitForRedisClients(url, 2, 15_000);
    await withRedis(url, async (client) => {
      const keys = await client.keys('perch-rl:*');
      if (keys.length > 0) await client.del(...keys);
    });
    const attempt = (server: ServerProcess, password: string) =>
      api(server.base, '/api/auth/login', { body: { username: 'alice', password } });

    for (let i = 0; i < AUTH_RATE_LIMIT; i += 1) {
      const server = i % 2 === 0 ? A : B;
      const answer = await attempt(server, 'not the password');
      expectStatus(answer, 401, `failed login ${String(i + 1)} on ${server.name}`);
    }
    for (const [server, password] of [
      [A, 'not the password'],
      [B, 'not the password'],
      [B, PASSWORD],
    ] as const) {
      const answer = await attempt(server, password);
      expectStatus(answer, 429, `login past the limit on ${server.name}`);
      expect(Object.keys(answer.body as object)).toEqual(['errors']);
      const { errors } = answer.body as { errors: unknown[] };
      expect(errors).toHaveLength(1);
      expect(typeof errors[0]).toBe('string');
      expect(String(errors[0]).trim()).not.toBe('');
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    const counters = await withRedis(url, async (client) => {
      const keys = await client.keys('perch-rl:*');
      return Promise.all(keys.map(async (key) => [key, await client.get(key)] as const));
    });
    console.info(`[cluster] rate limit counters in Redis: ${JSON.stringify(counters)}`);
    expect(counters.map(([, value]) => Number(value))).toEqual([AUTH_RATE_LIMIT + 3]);
    // Other routes are not limited by it.
    expectStatus(await api(A.base, '/api/posts'), 200, 'posts on A after the limit');
  }, 60_000);
});

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
