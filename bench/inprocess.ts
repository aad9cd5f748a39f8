/**
 * In-process timings of the queries behind the busiest screens, without HTTP: the server's own
 * services on a database opened with createDatabase, for random members. Also prints each query's
 * plan (SQLite: EXPLAIN QUERY PLAN; PostgreSQL: EXPLAIN ANALYZE) for one typical member.
 */
import { Kysely, PostgresDialect, type CompiledQuery, type LogEvent } from 'kysely';
import pg from 'pg';
import {
  closeDatabase,
  createDatabase,
  openSqlite,
  type DatabaseTarget,
} from '../apps/server/src/platform/db/database';
import type { Database } from '../apps/server/src/platform/db/schema';
import { PerchSqliteDialect } from '../apps/server/src/platform/db/sqlite-dialect';
// The server's Fastify augmentations (request.viewer, app.services), which its modules rely on.
import type {} from '../apps/server/src/app/app';
import type { Viewer } from '../apps/server/src/lib/viewer';
import { createTransact } from '../apps/server/src/platform/events/transactions';
import { createBookmarksService } from '../apps/server/src/modules/bookmarks/bookmarks.service';
import { createPostCards } from '../apps/server/src/modules/posts/post-cards';
import { createEntitiesService } from '../apps/server/src/modules/discovery/entities.service';
import { createPostsService } from '../apps/server/src/modules/posts/posts.service';
import { createReaderFlags } from '../apps/server/src/modules/posts/reader-flags';
import { createHiddenMembers } from '../apps/server/src/modules/safety/hidden-members';
import { createIdempotencyService } from '../apps/server/src/modules/idempotency/idempotency.service';
import { createKeptFollowees } from '../apps/server/src/modules/users/kept-followees';
import { createMemberCards } from '../apps/server/src/modules/users/member-cards';
import { createMemberStubs } from '../apps/server/src/modules/users/member-stubs';
import { createUsersService } from '../apps/server/src/modules/users/users.service';
import { percentile, Prng } from './lib/prng';
import { searchFragment } from './lib/text';

export interface QueryTiming {
  name: string;
  samples: number;
  p50: number;
  p99: number;
  mean: number;
  max: number;
}

export interface InProcessResult {
  timings: QueryTiming[];
  plans: { name: string; sql: string; plan: string[] }[];
}

type Db = Kysely<Database>;

/**
 * The services over one database, wired as the server's composition root (src/app/services.ts) wires
 * them. Only reads are timed: no relay hears commits, no media is checked, no timeline is kept.
 */
function servicesOf(db: Db) {
  const transact = createTransact(db, () => undefined);
  const media = {
    assertUsable: () => Promise.reject(new Error('the in-process benchmark only reads')),
  };
  // No one blocks or mutes anyone in generated data: each viewer's relations are read once.
  const hidden = createHiddenMembers({ reads: db, max: 10_000 });
  const stubs = createMemberStubs({ reads: db, max: 10_000 });
  const users = createUsersService({
    db,
    transact,
    media,
    hidden,
    stubs,
    cards: createMemberCards({ reads: db, max: 5_000 }),
    followees: createKeptFollowees({ reads: db, maxIds: 100_000, maxPerMember: 5_000 }),
  });
  // Home as computed from follows: what a member's first read (and any read past their timeline)
  // costs. The server's timelines are measured over HTTP.
  const timelines = { page: () => Promise.resolve(null), posted: () => Promise.resolve() };
  const cards = createPostCards({ reads: db, max: 10_000, packedMax: 12_000, authors: stubs });
  const flags = createReaderFlags({ reads: db, maxIds: 200_000, maxPerMember: 5_000 });
  const entities = createEntitiesService({ users });
  const posts = createPostsService({
    db,
    transact,
    media,
    users,
    timelines,
    cards,
    authors: stubs,
    flags,
    entities,
    hidden,
    idempotency: createIdempotencyService({ db }),
  });
  return { posts, users, bookmarks: createBookmarksService({ db, transact, posts }) };
}
type Services = ReturnType<typeof servicesOf>;
type Call = (services: Services, viewer: Viewer, prng: Prng) => Promise<unknown>;

/** What each screen asks the database, through the server's services. */
const CALLS: [name: string, call: Call][] = [
  [
    'home feed, latest',
    ({ posts }, viewer) => posts.feed(viewer, 'home', { sort: 'latest', limit: 20 }),
  ],
  [
    'home feed, trending',
    ({ posts }, viewer) => posts.feed(viewer, 'home', { sort: 'trending', limit: 20 }),
  ],
  [
    'explore, latest',
    ({ posts }, viewer) => posts.feed(viewer, 'explore', { sort: 'latest', limit: 20 }),
  ],
  [
    'liked, latest',
    ({ posts }, viewer) => posts.feed(viewer, 'liked', { sort: 'latest', limit: 20 }),
  ],
  [
    'member posts, latest',
    ({ posts }, viewer) => posts.byAuthor(viewer.username, viewer, { sort: 'latest', limit: 20 }),
  ],
  ['bookmarks', ({ bookmarks }, viewer) => bookmarks.list(viewer, { limit: 20 })],
  ['who to follow', ({ users }, viewer) => users.suggestions(viewer, { limit: 20 })],
  [
    'member search',
    ({ users }, viewer, prng) => users.search(viewer, { q: searchFragment(prng), limit: 20 }),
  ],
];

function summarise(name: string, durations: number[]): QueryTiming {
  const sorted = Float64Array.from(durations).sort();
  const round = (ms: number) => Math.round(ms * 1000) / 1000;
  let sum = 0;
  for (const d of sorted) sum += d;
  return {
    name,
    samples: sorted.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    mean: round(sum / Math.max(1, sorted.length)),
    max: round(sorted[sorted.length - 1] ?? 0),
  };
}

async function explain(
  target: DatabaseTarget,
  viewer: Viewer,
  log: (line: string) => void,
): Promise<InProcessResult['plans']> {
  const plans: InProcessResult['plans'] = [];
  let captured: CompiledQuery[] = [];
  const capture = (event: LogEvent) => {
    if (event.level === 'query') captured.push(event.query);
  };
  let run: (query: CompiledQuery) => Promise<string[]>;
  let db: Db;
  let close: () => Promise<void>;
  if (target.kind === 'sqlite') {
    const sqlite = openSqlite(target.filename);
    db = new Kysely<Database>({
      dialect: new PerchSqliteDialect({ database: sqlite }),
      log: capture,
    });
    run = (query) => {
      const rows = sqlite
        .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
        .all(...(query.parameters as unknown[])) as {
        id: number;
        parent: number;
        detail: string;
      }[];
      const depth = new Map<number, number>([[0, 0]]);
      return Promise.resolve(
        rows.map((row) => {
          const level = (depth.get(row.parent) ?? 0) + 1;
          depth.set(row.id, level);
          return `${'  '.repeat(level - 1)}${row.detail}`;
        }),
      );
    };
    close = () => db.destroy();
  } else {
    const pool = new pg.Pool({ connectionString: target.url, max: 1 });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: capture });
    run = async (query) =>
      (
        await pool.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${query.sql}`,
          query.parameters as unknown[],
        )
      ).rows.map((row) => row['QUERY PLAN']);
    close = () => db.destroy();
  }
  try {
    const services = servicesOf(db);
    for (const [name, call] of CALLS) {
      captured = [];
      await call(services, viewer, new Prng('explain', name));
      for (const query of captured.filter((q) => /^\s*select/i.test(q.sql))) {
        const plan = await run(query);
        plans.push({ name, sql: query.sql, plan });
      }
    }
  } finally {
    await close();
  }
  for (const { name, plan } of plans) {
    log(`  ${name}:`);
    for (const line of plan) log(`      ${line}`);
  }
  return plans;
}

/**
 * Times each call for random members (the home feed for `homeSamples` of them, the others within a
 * time budget each), then explains the queries for the first of them.
 */
export async function measureInProcess(options: {
  target: DatabaseTarget;
  seed: string;
  homeSamples: number;
  otherSamples: number;
  budgetMs: number;
  log: (line: string) => void;
  printSql?: boolean;
}): Promise<InProcessResult> {
  const { log } = options;
  const handle = createDatabase(options.target);
  const timings: QueryTiming[] = [];
  let typical: Viewer | null = null;
  try {
    const members = await handle.db
      .selectFrom('users')
      .select(['id', 'username', 'following_count'])
      .orderBy('id')
      .execute();
    if (members.length === 0) throw new Error('the instance has no members');
    const prng = new Prng(options.seed, 'in-process');
    const viewers = Array.from({ length: options.homeSamples }, () => {
      const member = prng.pick(members);
      return { id: member.id, username: member.username };
    });
    // The member whose following count is the median: the plans are shown for them.
    const byFollowing = [...members].sort((a, b) => a.following_count - b.following_count);
    const middle = byFollowing[Math.floor(byFollowing.length / 2)] ?? members[0];
    if (middle) typical = { id: middle.id, username: middle.username };

    const services = servicesOf(handle.db);
    for (const [name, call] of CALLS) {
      const samples = name === 'home feed, latest' ? options.homeSamples : options.otherSamples;
      // Warm up code paths and statement caches.
      for (let i = 0; i < Math.min(20, samples); i++) {
        await call(
          services,
          viewers[i % viewers.length] ?? viewers[0] ?? { id: '', username: '' },
          prng,
        );
      }
      const durations: number[] = [];
      const deadline =
        performance.now() + (samples === options.homeSamples ? Infinity : options.budgetMs);
      for (let i = 0; i < samples && performance.now() < deadline; i++) {
        const viewer = viewers[i % viewers.length] ?? { id: '', username: '' };
        const started = performance.now();
        await call(services, viewer, prng);
        durations.push(performance.now() - started);
      }
      const timing = summarise(name, durations);
      timings.push(timing);
      log(
        `  ${name.padEnd(22)} ${String(timing.samples).padStart(5)} members   p50 ${timing.p50.toFixed(2).padStart(8)} ms   p99 ${timing.p99.toFixed(2).padStart(8)} ms   max ${timing.max.toFixed(1).padStart(8)} ms`,
      );
    }
  } finally {
    await closeDatabase(handle);
  }
  log(
    `Query plans for a member with the median following count (${options.target.kind === 'sqlite' ? 'EXPLAIN QUERY PLAN' : 'EXPLAIN ANALYZE'}):`,
  );
  const plans = typical ? await explain(options.target, typical, log) : [];
  if (options.printSql) {
    for (const { name, sql } of plans) log(`  ${name}: ${sql}`);
  }
  return { timings, plans };
}
