import { ErrorMessages, PINNED_POSTS_MAX } from '@perch/contract';
import type { Kysely } from 'kysely';
import { badRequest } from '../../lib/errors';
import type { Database } from '../../platform/db/schema';
import type { Admission, PostInteraction } from './post-interaction';

type Db = Kysely<Database>;

async function insertPin(trx: Db, postId: string, userId: string, at: number) {
  const result = await trx
    .insertInto('pinned_posts')
    .values({ user_id: userId, post_id: postId, pinned_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'post_id']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

async function deletePin(trx: Db, postId: string, userId: string) {
  const result = await trx
    .deleteFrom('pinned_posts')
    .where('user_id', '=', userId)
    .where('post_id', '=', postId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** How many posts the member has pinned besides `postId`. */
async function otherPins(trx: Db, userId: string, postId: string): Promise<number> {
  const row = await trx
    .selectFrom('pinned_posts')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('user_id', '=', userId)
    .where('post_id', '<>', postId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Only the author pins, and at most PINNED_POSTS_MAX posts. */
async function admitPin({ trx, post, memberId, lockMember }: Admission): Promise<void> {
  if (post.user_id !== memberId) throw badRequest(ErrorMessages.pinNotOwner);
  // Pins of one member queue on their row, so two at once cannot both see room for one more.
  await lockMember(trx, memberId);
  // A post pinned already is answered as such below, whatever the count.
  if ((await otherPins(trx, memberId, post.id)) >= PINNED_POSTS_MAX) {
    throw badRequest(ErrorMessages.pinLimit);
  }
}

/**
 * A member pins one of their own posts to their profile, above the others: public (every reader
 * sees the post marked pinned), counted nowhere, no one notified.
 */
export const pin: PostInteraction = {
  name: 'pin',
  table: 'pinned_posts',
  add: insertPin,
  remove: deletePin,
  counter: null,
  events: {
    added: 'post.pinned',
    removed: 'post.unpinned',
    of: ({ subject, memberId, added }) => ({
      type: added ? 'post.pinned' : 'post.unpinned',
      payload: { postId: subject.id, userId: memberId },
    }),
  },
  audience: 'public',
  notification: null,
  view: { count: null, shared: 'pinned' },
  export: 'pins.json',
  // A pin settles neither of the viewer's marks, and its answer shows both.
  otherViewerState: 'both',
  countOf: () => 0,
  changed: (post, added) => ({ ...post, pinned: added }),
  refusals: {
    alreadyAdded: ErrorMessages.alreadyPinned,
    notThere: () => ErrorMessages.notPinned,
  },
  admit: admitPin,
};
