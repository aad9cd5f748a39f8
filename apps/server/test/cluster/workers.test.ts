/**
 * `WORKERS=2` on the embedded database: the supervising process prepares the SQLite file, closes
 * it, and starts two server processes that share the port.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../ports';
import { testDatabaseKind } from '../test-database';
import {
  api,
  startServer,
  tempDir,
  tsxInstalled,
  waitUntil,
  type ServerProcess,
} from './cluster-helpers';

const canRun = testDatabaseKind() === 'sqlite' && tsxInstalled();
const PASSWORD = 'correct horse battery';

describe.skipIf(!canRun)('two worker processes on one SQLite file', () => {
  const dataDir = tempDir('perch-workers-');
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('start after the supervisor has closed the database, and both answer', async () => {
    server = await startServer({
      name: 'workers',
      env: {
        WORKERS: '2',
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED: 'none',
        LOG_LEVEL: 'info',
        WEB_DIR: '',
        PASSWORD_HASH_COST: '1024',
        MEDIA_SWEEP_MINUTES: '0',
      },
    });
    const running = server;
    // Each worker logs where it listens; the supervisor itself does not listen.
    await waitUntil(
      'both workers listening',
      () =>
        Promise.resolve(
          new Set(
            running
              .logRecords()
              .filter((record) => String(record.msg).startsWith('Server listening'))
              .map((record) => record.pid),
          ).size === 2,
        ),
      30_000,
      100,
    );
    const signup = await api(running.base, '/api/auth/signup', {
      method: 'POST',
      body: {
        username: 'worker_one',
        email: 'worker_one@example.com',
        password: PASSWORD,
        confirmPassword: PASSWORD,
        firstName: 'Worker',
        lastName: 'One',
      },
    });
    expect(signup.status, signup.text).toBe(201);
    expect(running.exited()).toBe(false);
  });

  it('take turns at writing: likes sent to both at once all succeed', async () => {
    const running = server;
    if (!running) throw new Error('not started');
    const members = await Promise.all(
      ['ann', 'ben', 'cat', 'dan', 'eve', 'fay'].map((name) => signup(running, `w_${name}`)),
    );
    const [author] = members;
    if (author === undefined) throw new Error('no members');
    const postIds: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      const answer = await api(running.base, '/api/posts', {
        body: { postData: { content: `Post ${i}` } },
        headers: { prefer: 'return=minimal' },
        token: author,
      });
      expect(answer.status, answer.text).toBe(201);
      postIds.push((answer.body as { post: { _id: string } }).post._id);
    }
    // Each like reads the post before it writes; the other process commits in between.
    const statuses = await Promise.all(
      members.flatMap((token) =>
        postIds.map(async (postId) => {
          const liked = await api(running.base, `/api/posts/like/${postId}`, {
            method: 'POST',
            token,
          });
          const disliked = await api(running.base, `/api/posts/dislike/${postId}`, {
            method: 'POST',
            token,
          });
          return [liked.status, disliked.status];
        }),
      ),
    );
    expect(statuses.flat().filter((status) => status !== 201 && status !== 200)).toEqual([]);
    const after = await api(running.base, `/api/posts/${postIds[0] ?? ''}`);
    expect(after.status, after.text).toBe(200);
  });
});

async function signup(server: ServerProcess, username: string): Promise<string> {
  const answer = await api(server.base, '/api/auth/signup', {
    body: {
      username,
      email: `${username}@example.com`,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      firstName: 'Worker',
      lastName: username,
    },
  });
  expect(answer.status, answer.text).toBe(201);
  return (answer.body as { encodedToken: string }).encodedToken;
}
