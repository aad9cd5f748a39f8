import { ErrorMessages } from '@perch/contract';
import type { Kysely } from 'kysely';
import { newId } from '../../lib/ids';
import { compiledCommand } from '../../platform/db/compiled';
import type { Database } from '../../platform/db/schema';
import type { PostInteraction } from './post-interaction';

type Db = Kysely<Database>;

const repostCountChange = compiledCommand((db: Db, postId: string, delta: number) =>
  db
    .updateTable('posts')
    .set((eb) => ({ repost_count: eb('repost_count', '+', delta) }))
    .where('id', '=', postId),
);

/** Stores the repost under an id minted now (where it stands in Home); false when it exists. */
async function insertRepost(trx: Db, postId: string, userId: string, at: number) {
  const id = newId(at);
  const result = await trx
    .insertInto('reposts')
    .values({ id, post_id: postId, user_id: userId, created_at: at })
    .onConflict((oc) => oc.columns(['post_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n ? id : false;
}

async function deleteRepost(trx: Db, postId: string, userId: string) {
  const row = await trx
    .deleteFrom('reposts')
    .where('post_id', '=', postId)
    .where('user_id', '=', userId)
    .returning('id')
    .executeTakeFirst();
  return row ? row.id : false;
}

/**
 * A member reposts a post to their followers: public, counted on the post, its author notified;
 * the timelines consumer brings it into the reposter's followers' Home (modules/timelines).
 */
export const repost: PostInteraction = {
  name: 'repost',
  table: 'reposts',
  add: insertRepost,
  remove: deleteRepost,
  counter: {
    column: 'repost_count',
    adjust: async (trx, postId, delta) => {
      await repostCountChange(trx, postId, delta);
    },
  },
  events: {
    added: 'post.reposted',
    removed: 'post.unreposted',
    of: ({ subject, memberId, added, count, rowId }) => ({
      type: added ? 'post.reposted' : 'post.unreposted',
      payload: {
        postId: subject.id,
        postAuthorId: subject.user_id,
        userId: memberId,
        repostId: rowId ?? '',
        repostCount: count,
      },
    }),
  },
  audience: 'public',
  notification: 'repost',
  view: { count: 'repostCount', viewerState: 'repostedByViewer' },
  export: 'reposts.json',
  // A repost settles its own mark; its answer shows the like and the bookmark.
  otherViewerState: 'both',
  countOf: (post) => post.repost_count,
  changed: (post, added, count) => ({ ...post, repost_count: count, reposted: added }),
  refusals: {
    alreadyAdded: ErrorMessages.alreadyReposted,
    notThere: () => ErrorMessages.notReposted,
  },
};
