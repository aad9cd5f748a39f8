/**
 * Home against the pull query: for every member, the first page of
 * `GET /api/posts/feed?sort=latest&limit=20` as the running server answers it must hold exactly
 * the posts the database gives for "posts by the member or by someone the member follows, and
 * posts by others reposted by them, each once at its newest place (the newest such repost, which
 * the page must name as `repostedBy`, else the post itself), newest first", and say whether more
 * follow (nextCursor) exactly when more exist. A sample of members also has its second page compared, reached through nextCursor.
 *
 * Home may be filled asynchronously after a write, so members that differ are asked again, for up
 * to `settleMs` after the first pass, before a difference is reported.
 */
import { formatCount, type SqlRunner } from './lib/instance';
import { sleep } from './lib/proc';

export const PAGE_SIZE = 20;
const DAY = 24 * 60 * 60 * 1000;
/** The pull query first looks at this many days before the newest post (see pullQuery). */
const WINDOW_DAYS = 30;
const RETRY_PAUSE_MS = 250;
const DIFFERENCES_KEPT = 5;

export interface TimelineMember {
  id: string;
  username: string;
  token: string;
}

export interface TimelineOptions {
  url: string;
  /** A connection to the server's database (read only is enough). */
  runner: SqlRunner;
  members: readonly TimelineMember[];
  /** Every n-th member (0, n, 2n, …) also has its second page compared. */
  secondPageEvery: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** How long members that differ are asked again after the first pass. */
  settleMs: number;
  requestTimeoutMs: number;
}

/** Where a member's Home first departs from the pull query. */
export interface TimelineDifference {
  username: string;
  page: 1 | 2;
  /** 1-based position in the page; PAGE_SIZE + 1 when only the presence of nextCursor differs. */
  position: number;
  expected: string;
  actual: string;
}

export interface TimelineResult {
  members: number;
  /** Members whose second page was compared too (when they have one). */
  secondPages: number;
  differ: number;
  /** Members that differed on the first pass and matched on a later one. */
  caughtUp: number;
  rounds: number;
  seconds: number;
  /** The first few members that still differ. */
  differences: TimelineDifference[];
}

interface HomePage {
  ids: string[];
  nextCursor: string | null;
}

/** The newest post's time: the pull query's window ends there. */
async function newestPostTime(runner: SqlRunner): Promise<number> {
  const [row] = await runner.all<{ newest: number | string | null }>(
    'SELECT max(created_at) AS newest FROM posts',
  );
  return Number(row?.newest ?? 0);
}

/**
 * The member's Home computed from posts, reposts and follows: the newest `limit` posts by the
 * member or anyone they follow, and posts by others reposted by them, each once at its newest
 * place (the newest repost's id, else its own), as `postId` or `postId reposted by memberId`.
 * When the places since `since` are already `limit` or more, they are the answer (every older
 * place comes after them), which spares sorting every post of every followee for most members;
 * otherwise the query runs without the bound.
 */
export async function pullQuery(
  runner: SqlRunner,
  memberId: string,
  limit: number,
  since: number,
): Promise<string[]> {
  const ids = async (bounded: boolean) => {
    // SqlRunner numbers parameters in the order they appear (SQLite binds them positionally).
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const followed = () =>
      `(SELECT followee_id FROM follows WHERE follower_id = ${param(memberId)} UNION ALL SELECT ${param(memberId)})`;
    const after = (column: string) => (bounded ? ` AND ${column} >= ${param(since)}` : '');
    // A post's place is the largest of its own id (its author followed) and its reposts' ids.
    const sql = `SELECT x.post_id, r.user_id AS reposted_by FROM
         (SELECT post_id, max(place) AS place FROM
            (SELECT id AS post_id, id AS place FROM posts
               WHERE user_id IN ${followed()}${after('created_at')}
             UNION ALL
             SELECT r2.post_id, r2.id FROM reposts r2 JOIN posts p ON p.id = r2.post_id
               WHERE r2.user_id IN ${followed()} AND p.user_id <> ${param(memberId)}${after('r2.created_at')}) u
          GROUP BY post_id ORDER BY place DESC LIMIT ${param(limit)}) x
       LEFT JOIN reposts r ON r.id = x.place
       ORDER BY x.place DESC`;
    const rows = await runner.all<{ post_id: string; reposted_by: string | null }>(sql, params);
    return rows.map((row) => entryOf(row.post_id, row.reposted_by));
  };
  const recent = await ids(true);
  return recent.length >= limit ? recent : ids(false);
}

/** How an entry of Home is compared: its post, and the member whose repost brought it, if any. */
const entryOf = (postId: string, repostedBy: string | null) =>
  repostedBy === null ? postId : `${postId} reposted by ${repostedBy}`;

/** One page of the member's Home as the server answers it, as the web app asks for it. */
async function homePage(
  url: string,
  token: string,
  cursor: string | null,
  timeoutMs: number,
): Promise<HomePage | { error: string }> {
  const query = `sort=latest&limit=${PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  try {
    const response = await fetch(`${url}/api/posts/feed?${query}`, {
      headers: { authorization: `Bearer ${token}`, prefer: 'return=minimal' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) return { error: `HTTP ${response.status} ${text.slice(0, 120)}` };
    const body = JSON.parse(text) as {
      posts?: { id?: unknown; repostedBy?: { id?: unknown } }[];
      nextCursor?: unknown;
    };
    return {
      ids: (body.posts ?? []).map((post) =>
        entryOf(String(post.id), post.repostedBy ? String(post.repostedBy.id) : null),
      ),
      nextCursor: typeof body.nextCursor === 'string' ? body.nextCursor : null,
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** The first position where the page departs from the expected ids and continuation, or null. */
export function firstDifference(
  expected: readonly string[],
  expectMore: boolean,
  page: HomePage | { error: string },
): Omit<TimelineDifference, 'username' | 'page'> | null {
  if ('error' in page) return { position: 1, expected: expected[0] ?? 'none', actual: page.error };
  const length = Math.max(expected.length, page.ids.length);
  for (let i = 0; i < length; i++) {
    if (expected[i] !== page.ids[i]) {
      return { position: i + 1, expected: expected[i] ?? 'none', actual: page.ids[i] ?? 'none' };
    }
  }
  const more = page.nextCursor !== null;
  if (more === expectMore) return null;
  const describe = (next: boolean) => (next ? 'a nextCursor' : 'no nextCursor');
  return { position: PAGE_SIZE + 1, expected: describe(expectMore), actual: describe(more) };
}

/** Compares the member's first page (and second, when `pages` is 2) with the pull query. */
async function checkMember(
  options: TimelineOptions,
  member: TimelineMember,
  pages: 1 | 2,
  since: number,
): Promise<TimelineDifference | null> {
  const expected = await pullQuery(options.runner, member.id, pages * PAGE_SIZE + 1, since);
  let cursor: string | null = null;
  for (const page of pages === 2 ? ([1, 2] as const) : ([1] as const)) {
    const want = expected.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    const got = await homePage(options.url, member.token, cursor, options.requestTimeoutMs);
    const difference = firstDifference(want, expected.length > page * PAGE_SIZE, got);
    if (difference) return { username: member.username, page, ...difference };
    cursor = 'error' in got ? null : got.nextCursor;
    if (cursor === null) break;
  }
  return null;
}

/** The runner with its queries queued, one at a time (a pg client takes one query at once). */
function oneAtATime(runner: SqlRunner): SqlRunner {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    ...runner,
    all: <T>(sql: string, params?: unknown[]) => {
      const result = queue.then(() => runner.all<T>(sql, params));
      queue = result.catch(() => undefined);
      return result;
    },
  };
}

/** Runs `work` on every item with at most `concurrency` at once; results in the items' order. */
export async function mapBounded<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker),
  );
  return results;
}

/** Every member's Home against the pull query; members that differ are retried until settleMs. */
export async function checkTimelines(given: TimelineOptions): Promise<TimelineResult> {
  const started = performance.now();
  const options = { ...given, runner: oneAtATime(given.runner) };
  const since = (await newestPostTime(options.runner)) - WINDOW_DAYS * DAY;
  const every = Math.max(1, options.secondPageEvery);
  let pending = options.members.map((member, i) => ({
    member,
    pages: i % every === 0 ? (2 as const) : (1 as const),
  }));
  let differences: TimelineDifference[] = [];
  let firstPass = 0;
  let deadline = Infinity;
  let rounds = 0;
  for (;;) {
    rounds += 1;
    const found = await mapBounded(pending, options.concurrency, ({ member, pages }) =>
      checkMember(options, member, pages, since),
    );
    pending = pending.filter((_, i) => found[i] !== null);
    differences = found.filter((difference) => difference !== null);
    if (rounds === 1) {
      firstPass = pending.length;
      deadline = Date.now() + options.settleMs;
    }
    if (pending.length === 0 || Date.now() >= deadline) break;
    await sleep(RETRY_PAUSE_MS);
  }
  return {
    members: options.members.length,
    secondPages: Math.ceil(options.members.length / every),
    differ: pending.length,
    caughtUp: firstPass - pending.length,
    rounds,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    differences: differences.slice(0, DIFFERENCES_KEPT),
  };
}

/** The check's summary line, then one line per listed difference. */
export function timelineReport(result: TimelineResult): string[] {
  const lines = [
    `timeline consistency: ${formatCount(result.members)} members checked, ${formatCount(result.differ)} differ` +
      ` (second page too for ${formatCount(result.secondPages)}; ${formatCount(result.caughtUp)} matched only when asked again; ${result.rounds} round${result.rounds === 1 ? '' : 's'}, ${result.seconds} s)`,
  ];
  for (const d of result.differences) {
    lines.push(
      `  ${d.username}: page ${d.page}, position ${d.position}: expected ${d.expected}, got ${d.actual}`,
    );
  }
  return lines;
}
