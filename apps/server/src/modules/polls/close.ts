import type { PollsDeps } from './polls.deps';
import * as repo from './polls.repository';

/** Polls closed by one transaction at most; the next run takes the rest. */
const CLOSE_BATCH = 200;

/**
 * Closes the polls whose time ran out and records `poll.ended` for each, which the notifications
 * consumer turns into notices for the author and the voters. The claim is one UPDATE that asks
 * `closed = 0` of each row again, so two runs at once (two processes, a lease taken over) never
 * close a poll twice. Answers how many it closed.
 */
export async function closeEndedPolls(
  { transact }: Pick<PollsDeps, 'transact'>,
  now: number = Date.now(),
): Promise<number> {
  let closed = 0;
  for (;;) {
    const batch = await transact(async (trx, events) => {
      const claimed = await repo.claimEnded(trx, now, CLOSE_BATCH);
      for (const poll of claimed) {
        events.record({
          type: 'poll.ended',
          payload: { pollId: poll.id, postId: poll.post_id, authorId: poll.user_id },
        });
      }
      return claimed.length;
    });
    closed += batch;
    if (batch < CLOSE_BATCH) return closed;
  }
}
