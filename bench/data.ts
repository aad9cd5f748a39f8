/**
 * Builds a realistic Perch instance for benchmarks directly in the database.
 *
 *   npm run bench:data -- --posts 1000000 [--seed S] [--data-dir DIR] [--now 2026-01-01]
 *
 * SQLite by default (DATA_DIR defaults to bench-data/<posts>); PostgreSQL when DATABASE_URL is set
 * (its public schema is dropped and recreated). Tables come from the server's own migrations.
 * See bench/README.md for the shape of the data.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { findEntities, tagsOf } from '@perch/contract';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { ulid } from 'ulid';
import { closeDatabase, createDatabase } from '../apps/server/src/db/database';
import { DEFAULT_HOME_PULL_FOLLOWERS } from '../apps/server/src/config';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { INDEX_WAITING_POSTS_SQL } from '../apps/server/src/db/search-index';
import type { Database } from '../apps/server/src/db/schema';
import { verifyPassword } from '../apps/server/src/lib/password';
import {
  BENCH_PASSWORD,
  BENCH_PASSWORD_HASH,
  checkCounters,
  countRows,
  DEFAULT_SEED,
  formatCount,
  GENERATOR_VERSION,
  metaFileOf,
  openRunner,
  parseCount,
  resolveInstance,
  secretFileOf,
  type Instance,
  type InstanceMeta,
} from './lib/instance';
import { AliasTable, percentile, Prng, searchCumulative } from './lib/prng';
import { postgresSink, sqliteSink, type Sink } from './lib/sink';
import { bioText, commentText, FIRST_NAMES, LAST_NAMES, postText, rareWordsFor } from './lib/text';

const DAY = 86_400_000;
const YEAR = 365 * DAY;
const LIKES_PER_POST = 5;
const COMMENTS_PER_POST = 0.5;
const BOOKMARKS_PER_POST = 0.5;

export interface BuildOptions {
  /** End of the generated year (ms); defaults to the start of the current UTC day. */
  now?: number;
  log?: (line: string) => void;
}

/** Growable Int32Array. */
class IntList {
  data = new Int32Array(1024);
  length = 0;
  push(value: number) {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = value;
  }
}

/** Sorts the ids of rows that share a millisecond, so ids ascend in row order like their times. */
function sortTiedIds(ids: string[], times: ArrayLike<number>): void {
  let start = 0;
  for (let i = 1; i <= ids.length; i++) {
    if (i === ids.length || times[i] !== times[start]) {
      if (i - start > 1) {
        const run = ids.slice(start, i).sort();
        for (let j = 0; j < run.length; j++) ids[start + j] = run[j] ?? '';
      }
      start = i;
    }
  }
}

function timer() {
  const start = performance.now();
  return () => (performance.now() - start) / 1000;
}

/** Chooses `count` distinct members other than `exclude`, by weight when sparse, uniformly when dense. */
function chooseMembers(
  prng: Prng,
  table: AliasTable,
  members: number,
  count: number,
  exclude: number,
  stamp: Int32Array,
  mark: number,
  out: Int32Array,
): Int32Array {
  stamp[exclude] = mark;
  let n = 0;
  if (count * 3 < members) {
    let attempts = count * 30;
    while (n < count && attempts-- > 0) {
      const m = table.draw(prng);
      if (stamp[m] !== mark) {
        stamp[m] = mark;
        out[n++] = m;
      }
    }
  }
  if (n < count) {
    // Dense or unlucky: fill uniformly from the members not chosen yet.
    const rest: number[] = [];
    for (let m = 0; m < members; m++) if (stamp[m] !== mark) rest.push(m);
    for (let i = 0; n < count && i < rest.length; i++) {
      const j = i + prng.int(rest.length - i);
      const picked = rest[j] ?? 0;
      rest[j] = rest[i] ?? 0;
      rest[i] = picked;
      stamp[picked] = mark;
      out[n++] = picked;
    }
  }
  return out.subarray(0, n).sort();
}

async function prepareSqlite(instance: Instance) {
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    rmSync(instance.sqliteFile + suffix, { force: true });
  }
  const handle = createDatabase({ kind: 'sqlite', filename: instance.sqliteFile });
  await migrateToLatest(handle.db as Kysely<unknown>);
  await closeDatabase(handle);

  const db = new SqliteDatabase(instance.sqliteFile);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = OFF');
  db.pragma('cache_size = -524288');
  db.pragma('temp_store = MEMORY');
  db.pragma('threads = 2');
  // Secondary indexes (every index with its own CREATE statement) are built once, after the load.
  const indexes = db
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY rowid",
    )
    .all() as { name: string; sql: string }[];
  for (const { name } of indexes) db.exec(`DROP INDEX "${name}"`);
  db.exec('BEGIN');
  return {
    sink: sqliteSink(db),
    indexes: indexes.map((index) => index.name),
    async commit() {
      db.exec('COMMIT');
      db.exec('BEGIN');
      return Promise.resolve();
    },
    async buildIndexes() {
      db.exec('COMMIT');
      for (const { sql } of indexes) db.exec(sql);
      // The posts loaded wait to be indexed for search, as a write transaction's do.
      for (const statement of INDEX_WAITING_POSTS_SQL) db.exec(statement);
      // One segment per term, as a server's search-tidy job keeps it over time.
      db.exec("INSERT INTO posts_search (posts_search) VALUES ('optimize')");
      return Promise.resolve();
    },
    async analyze() {
      db.exec('ANALYZE');
      return Promise.resolve();
    },
    async close() {
      db.pragma('journal_mode = WAL');
      db.close();
      return Promise.resolve();
    },
  };
}

async function connectPostgres(url: string): Promise<pg.Client> {
  const first = new pg.Client({ connectionString: url });
  try {
    await first.connect();
    return first;
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error;
  }
  // The database does not exist yet: create it from the server's maintenance database.
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  target.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: target.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

async function preparePostgres(url: string) {
  const setup = await connectPostgres(url);
  await setup.query('DROP SCHEMA IF EXISTS public CASCADE');
  await setup.query('CREATE SCHEMA public');
  await setup.end();

  const handle = createDatabase({ kind: 'postgres', url });
  await migrateToLatest(handle.db as Kysely<unknown>);
  await closeDatabase(handle);

  const client = await connectPostgres(url);
  const indexes = (
    await client.query<{ indexname: string; indexdef: string }>(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
       WHERE i.schemaname = 'public'
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    )
  ).rows;
  for (const { indexname } of indexes) await client.query(`DROP INDEX "${indexname}"`);
  // Rows go in parent-first order; skip the per-row foreign key triggers during the load.
  try {
    await client.query("SET session_replication_role = 'replica'");
  } catch {
    // Not a superuser: keep the checks.
  }
  await client.query("SET maintenance_work_mem = '1GB'");
  await client.query('SET synchronous_commit = off');
  await client.query('BEGIN');
  return {
    sink: postgresSink(client),
    indexes: indexes.map((index) => index.indexname),
    async commit() {
      await client.query('COMMIT');
      await client.query('BEGIN');
    },
    async buildIndexes() {
      await client.query('COMMIT');
      for (const { indexdef } of indexes) await client.query(indexdef);
      // The replica role also skipped the triggers that count each tag's posts.
      await client.query(
        `INSERT INTO tags (name, post_count) SELECT tag, count(*) FROM post_tags GROUP BY tag
         ON CONFLICT (name) DO UPDATE SET post_count = excluded.post_count`,
      );
    },
    async analyze() {
      await client.query('VACUUM (ANALYZE)');
    },
    async close() {
      await client.end();
    },
  };
}

/** Builds the instance from scratch and returns its description (also written to bench-meta.json). */
export async function buildInstance(
  instance: Instance,
  options: BuildOptions = {},
): Promise<InstanceMeta> {
  const log =
    options.log ??
    ((line: string) => {
      console.log(line);
    });
  const now = options.now ?? Math.floor(Date.now() / DAY) * DAY;
  const P = instance.posts;
  const M = Math.max(3, Math.floor(P / 100));
  const seed = instance.seed;
  const total = timer();
  const phases: [string, number, number][] = [];
  const phase = async <T>(
    name: string,
    run: () => Promise<T>,
    count: (r: T) => number = () => 0,
  ) => {
    const elapsed = timer();
    const result = await run();
    const seconds = elapsed();
    const rows = count(result);
    phases.push([name, rows, seconds]);
    const shown = rows > 0 ? `${formatCount(rows)} rows` : '';
    log(`  ${name.padEnd(22)} ${shown.padStart(17)}  ${seconds.toFixed(1).padStart(6)} s`);
    return result;
  };

  if (!(await verifyPassword(BENCH_PASSWORD, BENCH_PASSWORD_HASH))) {
    throw new Error('BENCH_PASSWORD_HASH does not match BENCH_PASSWORD');
  }
  log(
    `Building ${instance.kind} instance: ${formatCount(P)} posts, ${formatCount(M)} members, seed "${seed}" → ${
      instance.kind === 'sqlite' ? instance.sqliteFile : (instance.databaseUrl ?? '')
    }`,
  );
  mkdirSync(path.join(instance.dataDir, 'media'), { recursive: true });
  rmSync(metaFileOf(instance), { force: true });
  const secretFile = secretFileOf(instance);
  mkdirSync(path.dirname(secretFile), { recursive: true, mode: 0o700 });
  writeFileSync(secretFile, randomBytes(48).toString('base64url'), { mode: 0o600 });

  const target = await phase('schema', () =>
    instance.kind === 'sqlite'
      ? prepareSqlite(instance)
      : preparePostgres(instance.databaseUrl ?? ''),
  );
  const sink: Sink = target.sink;

  // ---- members ------------------------------------------------------------------------------
  const model = timer();
  const start = now - YEAR;
  const memberTime = new Float64Array(M);
  const memberIds: string[] = new Array<string>(M);
  const popularity = new Float64Array(M);
  const activity = new Float64Array(M);
  const engagement = new Float64Array(M);
  const followers = new Int32Array(M);
  const following = new Int32Array(M);
  const postsCount = new Int32Array(M);
  const celebrities: number[] = [];
  {
    const prng = new Prng(seed, 'members');
    for (let i = 0; i < M; i++)
      memberTime[i] = Math.floor(start + prng.float() * (YEAR - 30 * DAY));
    memberTime.sort();
    for (let i = 0; i < M; i++) memberIds[i] = ulid(memberTime[i], prng.fn);
    sortTiedIds(memberIds, memberTime);
    // Over a random ranking, the top few are celebrities (followed by a third of everyone); the
    // others are drawn as followees by a power law of their rank.
    const rank = Array.from({ length: M }, (_, i) => i);
    for (let i = M - 1; i > 0; i--) {
      const j = prng.int(i + 1);
      [rank[i], rank[j]] = [rank[j] ?? 0, rank[i] ?? 0];
    }
    const celebrityCount = Math.max(1, Math.round(M / 1000));
    for (let i = 0; i < M; i++) {
      const r = rank[i] ?? 0;
      if (r < celebrityCount) celebrities.push(i);
      else popularity[i] = Math.pow(r - celebrityCount + 200, -1.3);
      activity[i] = prng.logNormal(1.1) * (r < M / 50 ? 3 : 1);
      engagement[i] = prng.logNormal(0.8);
    }
  }

  // ---- follow graph -------------------------------------------------------------------------
  const followOffsets = new Int32Array(M + 1);
  const followees = new IntList();
  {
    const prng = new Prng(seed, 'follows');
    const table = new AliasTable(popularity);
    const stamp = new Int32Array(M).fill(-1);
    const out = new Int32Array(M);
    for (let f = 0; f < M; f++) {
      const r = prng.float();
      let target =
        r < 0.1
          ? prng.int(20)
          : r < 0.95
            ? Math.floor(20 * Math.pow(10, prng.float()))
            : Math.floor(200 * Math.pow(5, prng.float()));
      target = Math.min(target, M - 1);
      stamp[f] = f;
      let n = 0;
      for (const c of celebrities) {
        if (c !== f && prng.chance(1 / 3)) {
          stamp[c] = f;
          out[n++] = c;
        }
      }
      const rest = chooseMembers(
        prng,
        table,
        M,
        Math.max(0, target - n),
        f,
        stamp,
        f,
        out.subarray(n),
      );
      const chosen = out.subarray(0, n + rest.length).sort();
      followOffsets[f] = followees.length;
      for (const e of chosen) {
        followees.push(e);
        followers[e] = (followers[e] ?? 0) + 1;
      }
      following[f] = chosen.length;
    }
    followOffsets[M] = followees.length;
  }

  // ---- posts: times, authors, ids -----------------------------------------------------------
  const postTime = new Float64Array(P);
  const postAuthor = new Int32Array(P);
  const postIds: string[] = new Array<string>(P);
  {
    const prng = new Prng(seed, 'posts');
    const first = (memberTime[0] ?? start) + 3_600_000;
    // Activity grows with the community: density rises towards now.
    for (let i = 0; i < P; i++) {
      postTime[i] = Math.floor(first + (now - 60_000 - first) * Math.sqrt(prng.float()));
    }
    postTime.sort();
    const cumulative = new Float64Array(M);
    let sum = 0;
    for (let m = 0; m < M; m++) cumulative[m] = sum += activity[m] ?? 0;
    let joined = 0;
    for (let i = 0; i < P; i++) {
      const t = postTime[i] ?? 0;
      while (joined < M && (memberTime[joined] ?? 0) <= t) joined++;
      const author = searchCumulative(
        cumulative,
        prng.float() * (cumulative[joined - 1] ?? 0),
        joined,
      );
      postAuthor[i] = author;
      postsCount[author] = (postsCount[author] ?? 0) + 1;
      postIds[i] = ulid(t, prng.fn);
    }
    sortTiedIds(postIds, postTime);
  }

  // ---- like counts: heavy-tailed, larger for popular authors --------------------------------
  const likeCount = new Int32Array(P);
  {
    const prng = new Prng(seed, 'like-counts');
    const weight = new Float64Array(P);
    for (let i = 0; i < P; i++) {
      weight[i] = Math.pow((followers[postAuthor[i] ?? 0] ?? 0) + 5, 0.7) * prng.logNormal(1.4);
    }
    const cap = M - 1;
    let scale = 0;
    let wanted = LIKES_PER_POST * P;
    // Two passes: posts at the cap give their excess to the others.
    for (let pass = 0; pass < 2; pass++) {
      let free = 0;
      let capped = 0;
      for (let i = 0; i < P; i++) {
        const w = weight[i] ?? 0;
        if (scale > 0 && w * scale >= cap) capped++;
        else free += w;
      }
      wanted = LIKES_PER_POST * P - capped * cap;
      scale = wanted / free;
    }
    for (let i = 0; i < P; i++) {
      const exact = (weight[i] ?? 0) * scale;
      likeCount[i] = Math.min(cap, Math.floor(exact + prng.float()));
    }
  }

  // ---- comments: where, who, when; then in id (time) order ----------------------------------
  const commentCount = new Int32Array(P);
  let commentPost = new Int32Array(0);
  let commentAuthor = new Int32Array(0);
  let commentTime = new Float64Array(0);
  let commentIds: string[] = [];
  {
    const prng = new Prng(seed, 'comments');
    const table = new AliasTable(engagement);
    let likes = 0;
    for (let i = 0; i < P; i++) likes += likeCount[i] ?? 0;
    const meanLikes = likes / P;
    const posts = new IntList();
    const authors = new IntList();
    const times: number[] = [];
    for (let i = 0; i < P; i++) {
      const n = prng.poisson((COMMENTS_PER_POST * ((likeCount[i] ?? 0) + 1)) / (meanLikes + 1));
      commentCount[i] = n;
      const t = postTime[i] ?? 0;
      for (let k = 0; k < n; k++) {
        const author = table.draw(prng);
        const from = Math.max(t, memberTime[author] ?? 0);
        posts.push(i);
        authors.push(author);
        times.push(Math.floor(from + (now - from) * Math.pow(prng.float(), 3)));
      }
    }
    const order = Uint32Array.from({ length: posts.length }, (_, i) => i).sort(
      (a, b) => (times[a] ?? 0) - (times[b] ?? 0) || a - b,
    );
    const n = order.length;
    commentPost = new Int32Array(n);
    commentAuthor = new Int32Array(n);
    commentTime = new Float64Array(n);
    commentIds = new Array<string>(n);
    for (let j = 0; j < n; j++) {
      const i = order[j] ?? 0;
      commentPost[j] = posts.data[i] ?? 0;
      commentAuthor[j] = authors.data[i] ?? 0;
      commentTime[j] = times[i] ?? 0;
      commentIds[j] = ulid(commentTime[j], prng.fn);
    }
    sortTiedIds(commentIds, commentTime);
  }

  {
    const seconds = model();
    phases.push(['model (in memory)', 0, seconds]);
    log(
      `  ${'model (in memory)'.padEnd(22)} ${''.padStart(17)}  ${seconds.toFixed(1).padStart(6)} s`,
    );
  }

  // ---- load ---------------------------------------------------------------------------------
  const load = timer();
  await phase(
    'users',
    async () => {
      const prng = new Prng(seed, 'profiles');
      const w = sink.writer('users', [
        ['id', 'text'],
        ['username', 'text'],
        ['first_name', 'text'],
        ['last_name', 'text'],
        ['email', 'text'],
        ['password_hash', 'text'],
        ['bio', 'text'],
        ['avatar_url', 'text'],
        ['followers_count', 'int4'],
        ['following_count', 'int4'],
        ['posts_count', 'int4'],
        ['created_at', 'int8'],
        ['updated_at', 'int8'],
      ]);
      for (let i = 0; i < M; i++) {
        const username = `member_${String(i).padStart(6, '0')}`;
        const t = memberTime[i] ?? 0;
        const full = w.add(
          memberIds[i] ?? '',
          username,
          prng.pick(FIRST_NAMES),
          prng.pick(LAST_NAMES),
          `${username}@example.com`,
          BENCH_PASSWORD_HASH,
          prng.chance(0.6) ? bioText(prng) : '',
          null,
          followers[i] ?? 0,
          following[i] ?? 0,
          postsCount[i] ?? 0,
          t,
          t,
        );
        if (full) await w.flush();
      }
      return w.finish();
    },
    (n) => n,
  );

  const postTags: [post: number, tag: string][] = [];
  await phase(
    'posts',
    async () => {
      const prng = new Prng(seed, 'post-text');
      const rareWords = rareWordsFor(P);
      const w = sink.writer('posts', [
        ['id', 'text'],
        ['user_id', 'text'],
        ['content', 'text'],
        ['entities', 'text'],
        ['media_url', 'text'],
        ['like_count', 'int4'],
        ['comment_count', 'int4'],
        ['created_at', 'int8'],
        ['updated_at', 'int8'],
      ]);
      for (let i = 0; i < P; i++) {
        const t = postTime[i] ?? 0;
        const content = postText(prng, rareWords);
        // The generated texts mention nobody, so their entities are their tags.
        const entities = findEntities(content);
        for (const tag of tagsOf(entities)) postTags.push([i, tag]);
        const full = w.add(
          postIds[i] ?? '',
          memberIds[postAuthor[i] ?? 0] ?? '',
          content,
          entities.length === 0 ? null : JSON.stringify(entities),
          null,
          likeCount[i] ?? 0,
          commentCount[i] ?? 0,
          t,
          t,
        );
        if (full) await w.flush();
      }
      return w.finish();
    },
    (n) => n,
  );
  await target.commit();

  await phase(
    'post tags',
    async () => {
      const w = sink.writer('post_tags', [
        ['tag', 'text'],
        ['post_id', 'text'],
        ['author_id', 'text'],
        ['created_at', 'int8'],
      ]);
      for (const [i, tag] of postTags) {
        const full = w.add(
          tag,
          postIds[i] ?? '',
          memberIds[postAuthor[i] ?? 0] ?? '',
          postTime[i] ?? 0,
        );
        if (full) await w.flush();
      }
      return w.finish();
    },
    (n) => n,
  );
  await target.commit();

  await phase(
    'likes',
    async () => {
      const prng = new Prng(seed, 'likes');
      const table = new AliasTable(engagement);
      const stamp = new Int32Array(M).fill(-1);
      const out = new Int32Array(M);
      const w = sink.writer('likes', [
        ['post_id', 'text'],
        ['user_id', 'text'],
        ['created_at', 'int8'],
      ]);
      for (let i = 0; i < P; i++) {
        const count = likeCount[i] ?? 0;
        if (count === 0) continue;
        const likers = chooseMembers(prng, table, M, count, postAuthor[i] ?? 0, stamp, i, out);
        const postId = postIds[i] ?? '';
        const t = postTime[i] ?? 0;
        for (const m of likers) {
          const from = Math.max(t, memberTime[m] ?? 0);
          const at = Math.floor(from + (now - from) * Math.pow(prng.float(), 4));
          if (w.add(postId, memberIds[m] ?? '', at)) await w.flush();
        }
      }
      return w.finish();
    },
    (n) => n,
  );
  await target.commit();

  await phase(
    'comments',
    async () => {
      const prng = new Prng(seed, 'comment-text');
      const w = sink.writer('comments', [
        ['id', 'text'],
        ['post_id', 'text'],
        ['user_id', 'text'],
        ['text', 'text'],
        ['upvote_count', 'int4'],
        ['downvote_count', 'int4'],
        ['created_at', 'int8'],
        ['updated_at', 'int8'],
      ]);
      for (let j = 0; j < commentIds.length; j++) {
        const t = commentTime[j] ?? 0;
        const full = w.add(
          commentIds[j] ?? '',
          postIds[commentPost[j] ?? 0] ?? '',
          memberIds[commentAuthor[j] ?? 0] ?? '',
          commentText(prng),
          0,
          0,
          t,
          t,
        );
        if (full) await w.flush();
      }
      return w.finish();
    },
    (n) => n,
  );

  await phase(
    'follows',
    async () => {
      const prng = new Prng(seed, 'follow-times');
      const w = sink.writer('follows', [
        ['follower_id', 'text'],
        ['followee_id', 'text'],
        ['created_at', 'int8'],
      ]);
      for (let f = 0; f < M; f++) {
        const followerId = memberIds[f] ?? '';
        for (let k = followOffsets[f] ?? 0; k < (followOffsets[f + 1] ?? 0); k++) {
          const e = followees.data[k] ?? 0;
          const from = Math.max(memberTime[f] ?? 0, memberTime[e] ?? 0);
          const at = Math.floor(from + (now - from) * prng.float());
          if (w.add(followerId, memberIds[e] ?? '', at)) await w.flush();
        }
      }
      return w.finish();
    },
    (n) => n,
  );

  await phase(
    'bookmarks',
    async () => {
      const prng = new Prng(seed, 'bookmarks');
      const cumulative = new Float64Array(P);
      let sum = 0;
      for (let i = 0; i < P; i++) cumulative[i] = sum += (likeCount[i] ?? 0) + 1;
      const appetite = Float64Array.from({ length: M }, () => prng.logNormal(1.2));
      let appetiteSum = 0;
      for (const a of appetite) appetiteSum += a;
      const scale = (BOOKMARKS_PER_POST * P) / appetiteSum;
      const w = sink.writer('bookmarks', [
        ['user_id', 'text'],
        ['post_id', 'text'],
        ['created_at', 'int8'],
      ]);
      for (let m = 0; m < M; m++) {
        const count = Math.min(
          Math.floor(P / 2),
          Math.floor((appetite[m] ?? 0) * scale + prng.float()),
        );
        const chosen = new Set<number>();
        while (chosen.size < count) chosen.add(searchCumulative(cumulative, prng.float() * sum));
        const memberId = memberIds[m] ?? '';
        for (const i of Int32Array.from(chosen).sort()) {
          const from = Math.max(postTime[i] ?? 0, memberTime[m] ?? 0);
          const at = Math.floor(from + (now - from) * prng.float());
          if (w.add(memberId, postIds[i] ?? '', at)) await w.flush();
        }
      }
      return w.finish();
    },
    (n) => n,
  );
  const loadSeconds = load();

  await phase(`indexes (${target.indexes.length})`, () => target.buildIndexes());
  await phase(instance.kind === 'sqlite' ? 'analyze' : 'vacuum analyze', () => target.analyze());
  await target.close();

  const runner = await openRunner(
    instance.kind === 'sqlite'
      ? { kind: 'sqlite', file: instance.sqliteFile, readonly: true }
      : { kind: 'postgres', url: instance.databaseUrl ?? '' },
  );
  const verification = await phase('verify counters', async () => ({
    rows: await countRows(runner),
    mismatches: await checkCounters(runner),
  }));
  await runner.close();
  const bad = Object.entries(verification.mismatches).filter(([, n]) => n > 0);
  if (bad.length > 0) {
    throw new Error(`counters differ from rows: ${bad.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }

  const sortedLikes = Int32Array.from(likeCount).sort();
  const sortedFollowers = Int32Array.from(followers).sort();
  const sortedFollowing = Int32Array.from(following).sort();
  const totalSeconds = total();
  log(
    `  likes per post: p50 ${percentile(sortedLikes, 50)}, p99 ${percentile(sortedLikes, 99)}, max ${
      sortedLikes[sortedLikes.length - 1] ?? 0
    }; posts with ≥1000 likes: ${sortedLikes.filter((n) => n >= 1000).length}`,
  );
  log(
    `  followers: p50 ${percentile(sortedFollowers, 50)}, p99 ${percentile(sortedFollowers, 99)}, max ${
      sortedFollowers[sortedFollowers.length - 1] ?? 0
    } (${celebrities.length} celebrities); following: p50 ${percentile(sortedFollowing, 50)}, p90 ${percentile(
      sortedFollowing,
      90,
    )}, max ${sortedFollowing[sortedFollowing.length - 1] ?? 0}`,
  );
  log(
    `  rows: ${Object.entries(verification.rows)
      .map(([table, n]) => `${table} ${formatCount(n)}`)
      .join(', ')}`,
  );
  log(
    `  counters verified (${Object.keys(verification.mismatches).join(', ')}): all equal the rows`,
  );
  log(`  load ${loadSeconds.toFixed(1)} s, total ${totalSeconds.toFixed(1)} s`);

  const meta: InstanceMeta = {
    generatorVersion: GENERATOR_VERSION,
    kind: instance.kind,
    posts: P,
    seed,
    members: M,
    now,
    databaseUrl: instance.databaseUrl,
    rows: verification.rows,
    loadSeconds: totalSeconds,
    builtAt: new Date().toISOString(),
  };
  writeFileSync(metaFileOf(instance), `${JSON.stringify({ ...meta, phases }, null, 2)}\n`);
  return meta;
}

/**
 * Members followed by at least the server's default HOME_PULL_FOLLOWERS are pulled into Home
 * rather than written to timelines (see modules/timelines). A live instance marks each on their
 * first post past that count; the generated one starts as such an instance would be after a while,
 * every such member marked, so Home is read as it would be day to day. A run with another
 * HOME_PULL_FOLLOWERS marks the others on their first post, in the run's copy only.
 */
async function markPulledAuthors(db: Kysely<Database>): Promise<void> {
  await sql`
    INSERT INTO pulled_authors (user_id, since)
    SELECT id, '' FROM users WHERE followers_count >= ${DEFAULT_HOME_PULL_FOLLOWERS}
    ON CONFLICT (user_id) DO NOTHING`.execute(db);
}

/**
 * Applies migrations added since the instance was built (then refreshes the planner's statistics),
 * so the benchmark measures the schema the server would run with. Answers how many were applied.
 */
export async function migrateInstance(instance: Instance): Promise<number> {
  const handle = createDatabase(
    instance.kind === 'sqlite'
      ? { kind: 'sqlite', filename: instance.sqliteFile }
      : { kind: 'postgres', url: instance.databaseUrl ?? '' },
  );
  try {
    const applied = async () =>
      (
        await sql<{ n: number | string }>`SELECT count(*) AS n FROM kysely_migration`.execute(
          handle.db,
        )
      ).rows[0]?.n;
    const before = Number(await applied());
    await migrateToLatest(handle.db as Kysely<unknown>);
    await markPulledAuthors(handle.db);
    const count = Number(await applied()) - before;
    if (count > 0) await sql`ANALYZE`.execute(handle.db);
    return count;
  } finally {
    await closeDatabase(handle);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      posts: { type: 'string', default: '10000' },
      seed: { type: 'string', default: DEFAULT_SEED },
      'data-dir': { type: 'string' },
      now: { type: 'string' },
    },
  });
  const instance = resolveInstance({
    posts: parseCount(values.posts),
    seed: values.seed,
    dataDir: values['data-dir'],
    databaseUrl: process.env.DATABASE_URL ?? null,
  });
  const now = values.now === undefined ? undefined : Date.parse(values.now);
  if (now !== undefined && Number.isNaN(now)) throw new Error(`--now is not a date: ${values.now}`);
  await buildInstance(instance, { now });
  console.log(
    `Instance ready. DATA_DIR=${instance.dataDir}${instance.databaseUrl ? ` DATABASE_URL=${instance.databaseUrl}` : ''}; every member (member_000000 …) logs in with the password "${BENCH_PASSWORD}".`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
}
