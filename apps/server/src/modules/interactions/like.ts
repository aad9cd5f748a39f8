import { ErrorMessages } from '@perch/contract';
import type { Kysely } from 'kysely';
import { compiledCommand } from '../../platform/db/compiled';
import type { Database } from '../../platform/db/schema';
import type { PostInteraction } from './post-interaction';

type Db = Kysely<Database>;

// Compiled once (see db/compiled.ts): a like is the most frequent write.
const likeInsert = compiledCommand((db: Db, postId: string, userId: string, at: number) =>
  db
    .insertInto('likes')
    .values({ post_id: postId, user_id: userId, created_at: at })
    .onConflict((oc) => oc.columns(['post_id', 'user_id']).doNothing()),
);

const likeDelete = compiledCommand((db: Db, postId: string, userId: string) =>
  db.deleteFrom('likes').where('post_id', '=', postId).where('user_id', '=', userId),
);

const likeCountChange = compiledCommand((db: Db, postId: string, delta: number) =>
  db
    .updateTable('posts')
    .set((eb) => ({ like_count: eb('like_count', '+', delta) }))
    .where('id', '=', postId),
);

/** A member likes a post: public, counted on the post, its author notified. */
export const like: PostInteraction = {
  name: 'like',
  table: 'likes',
  add: async (trx, postId, userId, at) => (await likeInsert(trx, postId, userId, at)) > 0n,
  remove: async (trx, postId, userId) => (await likeDelete(trx, postId, userId)) > 0n,
  counter: {
    column: 'like_count',
    adjust: async (trx, postId, delta) => {
      await likeCountChange(trx, postId, delta);
    },
  },
  events: {
    added: 'post.liked',
    removed: 'post.unliked',
    of: ({ subject, memberId, added, count }) => ({
      type: added ? 'post.liked' : 'post.unliked',
      payload: {
        postId: subject.id,
        postAuthorId: subject.user_id,
        userId: memberId,
        likeCount: count,
      },
    }),
  },
  audience: 'public',
  notification: 'like',
  view: { count: 'likes.likeCount', viewerState: 'likedByViewer' },
  export: 'likes.json',
  otherViewerState: 'bookmarked',
  countOf: (post) => post.like_count,
  changed: (post, added, count) => ({ ...post, like_count: count, liked: added }),
  refusals: {
    alreadyAdded: ErrorMessages.alreadyLiked,
    notThere: (post) =>
      post.like_count === 0 ? ErrorMessages.likeBelowZero : ErrorMessages.alreadyDisliked,
  },
};
