import type { AddressInfo } from 'node:net';
import { ErrorMessages } from '@perch/contract';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../factories';
import { createTestApp, type TestApp } from '../helpers';
import { createMembers, createPost } from '../social/social-helpers';
import { adminUrl, testDatabaseKind } from '../test-database';

/**
 * PostgreSQL going away under load, as a restart, a failover or a proxy does it: every backend of
 * the app's database is terminated, again and again, while clients read and write.
 */
describe.runIf(testDatabaseKind() === 'postgres')('a dropped PostgreSQL connection', () => {
  let t: TestApp;
  let base: string;
  let members: Member[];
  let postIds: string[];
  let admin: pg.Client;
  let database: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    members = await createMembers(t.app, 4);
    postIds = [];
    for (const member of members) {
      postIds.push((await createPost(t.app, member.token, `post of ${member.user.username}`))._id);
    }
    const row = await sql<{ name: string }>`select current_database() as name`.execute(t.app.db);
    database = row.rows[0]?.name ?? '';
    admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await t.close();
  });

  const terminateBackends = () =>
    admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [database],
    );

  interface Outcome {
    status: number;
    body: string;
  }

  async function send(method: string, path: string, token?: string): Promise<Outcome> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: token ? { authorization: token, prefer: 'return=minimal' } : {},
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, body: await response.text() };
  }

  it('reads again once when the pooled connection died meanwhile', async () => {
    expect((await send('GET', '/api/posts')).status).toBe(200);
    await terminateBackends();
    const after = await send('GET', '/api/posts');
    expect(after.status, after.body).toBe(200);
  });

  it('answers 503 or succeeds under load, stays up, and serves again within 3 s', async () => {
    const outcomes: Outcome[] = [];
    let stop = false;
    const client = async (index: number) => {
      const member = members[index % members.length];
      for (let round = 0; !stop; round += 1) {
        const postId = postIds[(index + round) % postIds.length] ?? '';
        const request =
          round % 3 === 0
            ? send('POST', `/api/posts/like/${postId}`, member?.token)
            : round % 3 === 1
              ? send('POST', `/api/posts/dislike/${postId}`, member?.token)
              : send('GET', '/api/posts/feed', member?.token);
        outcomes.push(await request);
      }
    };
    const load = Promise.all(Array.from({ length: 12 }, (_, i) => client(i)));
    for (let i = 0; i < 8; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      await terminateBackends();
    }
    stop = true;
    await load;

    expect(outcomes.length).toBeGreaterThan(50);
    const statuses = new Set(outcomes.map((o) => o.status));
    for (const status of statuses) expect([200, 201, 400, 503]).toContain(status);
    for (const outcome of outcomes.filter((o) => o.status === 503)) {
      expect(JSON.parse(outcome.body)).toEqual({ errors: [ErrorMessages.databaseUnavailable] });
    }

    const recovered = Date.now();
    let status = 0;
    while (status !== 200 && Date.now() - recovered < 3_000) {
      status = (await send('GET', '/api/posts/feed', members[0]?.token)).status;
    }
    expect(status).toBe(200);
    const write = await send('POST', `/api/posts/like/${postIds[0] ?? ''}`, members[3]?.token);
    expect([201, 400]).toContain(write.status);
    // Counts stayed exact through it all.
    const rows = await t.app.db
      .selectFrom('posts as p')
      .select(['p.like_count'])
      .select((eb) =>
        eb
          .selectFrom('likes as l')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('l.post_id', '=', 'p.id')
          .as('likes'),
      )
      .execute();
    for (const row of rows) expect(Number(row.likes)).toBe(row.like_count);
  }, 30_000);
});
