/**
 * The checks after the run, with the server stopped: the copy's counters must equal their rows,
 * the rows added must match the writes answered 2xx, and every post whose creation was answered
 * 2xx must be in the database.
 */
import { checkCounters, countRows, formatCount, type SqlRunner } from './lib/instance';
import type { WriteLog } from './scenarios';

export interface Expectation {
  what: string;
  low: number;
  high: number;
  actual: number;
}

/** Posts answered 2xx by one scenario, the ids read from those answers, and how many exist. */
export interface CreatedPostsCheck {
  scenario: string;
  answered: number;
  ids: number;
  found: number;
}

export interface Verification {
  lost: boolean;
  expectations: Expectation[];
  /** Counter name → rows where it differs from the rows it counts. */
  mismatches: Record<string, number>;
  createdPosts: CreatedPostsCheck[];
}

const CREATE_POST_KEYS = ['create-post', 'create-post-celebrity'];
const IDS_PER_QUERY = 500;

/** How many of these post ids the database holds. */
async function postsFound(runner: SqlRunner, ids: readonly string[]): Promise<number> {
  let found = 0;
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    const batch = ids.slice(start, start + IDS_PER_QUERY);
    const marks = batch.map((_, i) => `$${i + 1}`).join(', ');
    const [row] = await runner.all<{ n: number | string }>(
      `SELECT count(*) AS n FROM posts WHERE id IN (${marks})`,
      batch,
    );
    found += Number(row?.n ?? 0);
  }
  return found;
}

/**
 * Requests still in flight when a timed run stopped were applied or not (their answers were never
 * read), so each change must lie between what was answered 2xx and what was sent.
 */
function expectationsOf(
  writes: Pick<WriteLog, 'sent' | 'succeeded'>,
  added: (table: string) => number,
): Expectation[] {
  const ok = (...keys: string[]) =>
    keys.reduce((sum, key) => sum + (writes.succeeded[key] ?? 0), 0);
  const out = (...keys: string[]) => keys.reduce((sum, key) => sum + (writes.sent[key] ?? 0), 0);
  return [
    {
      what: 'posts added = create-post and create-post-celebrity answered 2xx (+ in flight)',
      low: ok(...CREATE_POST_KEYS),
      high: out(...CREATE_POST_KEYS),
      actual: added('posts'),
    },
    {
      what: 'comments added = comment answered 2xx (+ in flight)',
      low: ok('comment'),
      high: out('comment'),
      actual: added('comments'),
    },
    {
      what: 'likes added = likes − dislikes answered 2xx (± in flight)',
      low: ok('like:on') - out('like:off'),
      high: out('like:on') - ok('like:off'),
      actual: added('likes'),
    },
    {
      what: 'bookmarks added = added − removed answered 2xx (± in flight)',
      low: ok('bookmark:on') - out('bookmark:off'),
      high: out('bookmark:on') - ok('bookmark:off'),
      actual: added('bookmarks'),
    },
  ];
}

const mark = (good: boolean) => (good ? 'ok  ' : 'FAIL');

/** With the server stopped: counters, rows added and created posts against the writes made. */
export async function verifyWrites(
  openRunner: () => Promise<SqlRunner>,
  before: Record<string, number>,
  writes: Pick<WriteLog, 'sent' | 'succeeded' | 'createdPosts'>,
  log: (line?: string) => void,
): Promise<Verification> {
  log();
  log('Checking the database after the run (server stopped):');
  const check = await openRunner();
  let after: Record<string, number>;
  let mismatches: Record<string, number>;
  const createdPosts: CreatedPostsCheck[] = [];
  try {
    after = await countRows(check);
    mismatches = await checkCounters(check);
    for (const scenario of CREATE_POST_KEYS) {
      const answered = writes.succeeded[scenario] ?? 0;
      const ids = writes.createdPosts[scenario] ?? [];
      if (answered === 0 && ids.length === 0) continue;
      const found = await postsFound(check, ids);
      createdPosts.push({ scenario, answered, ids: ids.length, found });
    }
  } finally {
    await check.close();
  }
  const expectations = expectationsOf(
    writes,
    (table) => (after[table] ?? 0) - (before[table] ?? 0),
  );
  let lost = false;
  for (const e of expectations) {
    const good = e.low <= e.actual && e.actual <= e.high;
    lost ||= !good;
    const range =
      e.low === e.high ? formatCount(e.low) : `${formatCount(e.low)}…${formatCount(e.high)}`;
    log(`  ${mark(good)} ${e.what}: expected ${range}, found ${formatCount(e.actual)}`);
  }
  for (const c of createdPosts) {
    const good = c.found === c.answered && c.ids === c.answered;
    lost ||= !good;
    const unread =
      c.ids === c.answered ? '' : ` (${formatCount(c.answered - c.ids)} answers without an id)`;
    log(
      `  ${mark(good)} every post ${c.scenario} answered 2xx is in the database: ${formatCount(c.found)} of ${formatCount(c.answered)}${unread}`,
    );
  }
  for (const [name, n] of Object.entries(mismatches)) {
    lost ||= n > 0;
    log(`  ${mark(n === 0)} ${name} equals its rows${n === 0 ? '' : ` (${n} rows differ)`}`);
  }
  const keys = [
    'like:on',
    'like:off',
    'bookmark:on',
    'bookmark:off',
    'comment',
    ...CREATE_POST_KEYS,
  ];
  const counts = keys.map(
    (k) => `${k} ${formatCount(writes.succeeded[k] ?? 0)}/${formatCount(writes.sent[k] ?? 0)}`,
  );
  log(`  writes answered 2xx / sent: ${counts.join(', ')}`);
  return { lost, expectations, mismatches, createdPosts };
}
