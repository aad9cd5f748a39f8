import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

/** A poll's own columns, as votes and the closing job read them. */
export interface PollRow {
  id: string;
  post_id: string;
  user_id: string;
  multiple: number;
  expires_at: number;
}

export async function insertPoll(db: Db, poll: PollRow, options: readonly string[]): Promise<void> {
  await db.insertInto('polls').values(poll).execute();
  await db
    .insertInto('poll_options')
    .values(options.map((title, position) => ({ poll_id: poll.id, position, title })))
    .execute();
}

/** Writes the poll as the post's card shows it (JSON, see read-model/post/poll-view.ts). */
export async function setPostPoll(db: Db, postId: string, json: string): Promise<void> {
  await db.updateTable('posts').set({ poll: json }).where('id', '=', postId).execute();
}

export function findPoll(db: Db, pollId: string): Promise<PollRow | undefined> {
  return db
    .selectFrom('polls')
    .select(['id', 'post_id', 'user_id', 'multiple', 'expires_at'])
    .where('id', '=', pollId)
    .executeTakeFirst();
}

/** The member's row among the poll's voters; false when they had voted already. */
export async function addVoter(db: Db, pollId: string, userId: string, at: number) {
  const rows = await db
    .insertInto('poll_voters')
    .values({ poll_id: pollId, user_id: userId, voted_at: at })
    .onConflict((oc) => oc.columns(['poll_id', 'user_id']).doNothing())
    .returning('user_id')
    .execute();
  return rows.length > 0;
}

/**
 * Stores the member's choices and counts them: each counter moves by an atomic update in the
 * vote's transaction, so that votes at once all count.
 */
export async function countVote(
  db: Db,
  pollId: string,
  userId: string,
  choices: readonly number[],
): Promise<void> {
  await db
    .insertInto('poll_votes')
    .values(choices.map((position) => ({ poll_id: pollId, user_id: userId, position })))
    .execute();
  await db
    .updateTable('poll_options')
    .set((eb) => ({ votes_count: eb('votes_count', '+', 1) }))
    .where('poll_id', '=', pollId)
    .where('position', 'in', [...choices])
    .execute();
  await db
    .updateTable('polls')
    .set((eb) => ({
      votes_count: eb('votes_count', '+', choices.length),
      voters_count: eb('voters_count', '+', 1),
    }))
    .where('id', '=', pollId)
    .execute();
}

/** The poll's counts as they are: each option's votes in order, and its voters. */
export async function countsOf(
  db: Db,
  pollId: string,
): Promise<{ optionVotes: number[]; voters: number }> {
  const [options, poll] = await Promise.all([
    db
      .selectFrom('poll_options')
      .select('votes_count')
      .where('poll_id', '=', pollId)
      .orderBy('position')
      .execute(),
    db
      .selectFrom('polls')
      .select('voters_count')
      .where('id', '=', pollId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    optionVotes: options.map((option) => option.votes_count),
    voters: poll.voters_count,
  };
}

/**
 * Marks up to `limit` polls whose time ran out as closed and answers them: the condition is asked
 * again of each row as it is updated (PostgreSQL re-reads a row another closer changed), so two
 * closers at once never both take a poll.
 */
export function claimEnded(db: Db, now: number, limit: number) {
  return db
    .updateTable('polls')
    .set({ closed: 1 })
    .where('closed', '=', 0)
    .where('expires_at', '<=', now)
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('polls as due')
        .select('due.id')
        .where('due.closed', '=', 0)
        .where('due.expires_at', '<=', now)
        .orderBy('due.expires_at')
        .limit(limit),
    )
    .returning(['id', 'post_id', 'user_id'])
    .execute();
}

/** The members who voted in the poll. */
export async function votersOf(db: Db, pollId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('poll_voters')
    .select('user_id')
    .where('poll_id', '=', pollId)
    .orderBy('user_id')
    .execute();
  return rows.map((row) => row.user_id);
}

/** The member's choices in the polls of `postIds`, or, without them, in up to `limit` polls. */
export function ownVotesOf(
  db: Db,
  userId: string,
  scope: { postIds: readonly string[] } | { limit: number },
) {
  let polls = db
    .selectFrom('poll_voters as pv')
    .innerJoin('polls as p', 'p.id', 'pv.poll_id')
    .select(['pv.poll_id', 'p.post_id'])
    .where('pv.user_id', '=', userId);
  polls =
    'postIds' in scope
      ? polls.where('p.post_id', 'in', [...scope.postIds])
      : polls.orderBy('pv.poll_id').limit(scope.limit);
  return db
    .selectFrom(polls.as('voted'))
    .innerJoin('poll_votes as v', (join) =>
      join.onRef('v.poll_id', '=', 'voted.poll_id').on('v.user_id', '=', userId),
    )
    .select(['voted.post_id', 'v.position'])
    .orderBy('v.position')
    .execute();
}

/** The member's choices in polls on others' posts, with each poll's post and its poll as kept. */
export async function votesInOthersPolls(db: Db, userId: string) {
  const rows = await db
    .selectFrom('poll_votes as v')
    .innerJoin('polls as p', 'p.id', 'v.poll_id')
    .innerJoin('posts', 'posts.id', 'p.post_id')
    .select(['v.poll_id', 'p.post_id', 'posts.poll', 'v.position'])
    .where('v.user_id', '=', userId)
    .where('p.user_id', '<>', userId)
    .orderBy('v.poll_id')
    .orderBy('v.position')
    .execute();
  const polls = new Map<string, { postId: string; poll: string | null; positions: number[] }>();
  for (const row of rows) {
    const poll = polls.get(row.poll_id) ?? { postId: row.post_id, poll: row.poll, positions: [] };
    poll.positions.push(row.position);
    polls.set(row.poll_id, poll);
  }
  return polls;
}

/** Takes the member's vote out of the poll: their rows go and every counter moves back. */
export async function uncountVote(
  db: Db,
  pollId: string,
  userId: string,
  positions: readonly number[],
): Promise<void> {
  await db
    .updateTable('poll_options')
    .set((eb) => ({ votes_count: eb('votes_count', '-', 1) }))
    .where('poll_id', '=', pollId)
    .where('position', 'in', [...positions])
    .execute();
  await db
    .updateTable('polls')
    .set((eb) => ({
      votes_count: eb('votes_count', '-', positions.length),
      voters_count: eb('voters_count', '-', 1),
    }))
    .where('id', '=', pollId)
    .execute();
  await db
    .deleteFrom('poll_votes')
    .where('poll_id', '=', pollId)
    .where('user_id', '=', userId)
    .execute();
  await db
    .deleteFrom('poll_voters')
    .where('poll_id', '=', pollId)
    .where('user_id', '=', userId)
    .execute();
}
