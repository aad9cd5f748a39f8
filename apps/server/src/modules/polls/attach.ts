import type { Kysely } from 'kysely';
import type { PostCreateInput } from '@perch/contract';
import { newId } from '../../lib/ids';
import type { Database } from '../../platform/db/schema';
import { encodePoll, type PollData } from '../../read-model/post/poll-view';
import * as repo from './polls.repository';

/**
 * Gives a post just written its poll, in the post's transaction: the poll's rows, and the poll as
 * its card shows it on the post's row. Answers that JSON, for the post's answer.
 */
export async function attachPoll(
  trx: Kysely<Database>,
  post: { id: string; user_id: string },
  input: NonNullable<PostCreateInput['poll']>,
  now: number,
): Promise<string> {
  const poll: PollData = {
    id: newId(now),
    expiresAt: now + input.expiresIn * 1000,
    multiple: input.multiple ?? false,
    options: input.options,
    votes: input.options.map(() => 0),
    voters: 0,
  };
  await repo.insertPoll(
    trx,
    {
      id: poll.id,
      post_id: post.id,
      user_id: post.user_id,
      multiple: poll.multiple ? 1 : 0,
      expires_at: poll.expiresAt,
    },
    poll.options,
  );
  const json = encodePoll(poll);
  await repo.setPostPoll(trx, post.id, json);
  return json;
}
