import { ErrorMessages } from '@perch/contract';
import type { Kysely } from 'kysely';
import { compiledCommand } from '../../platform/db/compiled';
import type { Database } from '../../platform/db/schema';
import type { PostInteraction } from './post-interaction';

type Db = Kysely<Database>;

const bookmarkInsert = compiledCommand((db: Db, userId: string, postId: string, at: number) =>
  db
    .insertInto('bookmarks')
    .values({ user_id: userId, post_id: postId, created_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'post_id']).doNothing()),
);

const bookmarkDelete = compiledCommand((db: Db, userId: string, postId: string) =>
  db.deleteFrom('bookmarks').where('user_id', '=', userId).where('post_id', '=', postId),
);

/** A member saves a post to read later: private to them, counted nowhere, no one notified. */
export const bookmark: PostInteraction = {
  name: 'bookmark',
  table: 'bookmarks',
  add: async (trx, postId, userId, at) => (await bookmarkInsert(trx, userId, postId, at)) > 0n,
  remove: async (trx, postId, userId) => (await bookmarkDelete(trx, userId, postId)) > 0n,
  counter: null,
  events: {
    added: 'bookmark.added',
    removed: 'bookmark.removed',
    of: ({ subject, memberId, added }) => ({
      type: added ? 'bookmark.added' : 'bookmark.removed',
      payload: { userId: memberId, postId: subject.id },
    }),
  },
  audience: 'owner',
  notification: null,
  view: { count: null, viewerState: 'bookmarkedByViewer' },
  export: 'bookmarks.json',
  otherViewerState: 'liked',
  countOf: () => 0,
  changed: (post, added) => ({ ...post, bookmarked: added }),
  refusals: {
    alreadyAdded: ErrorMessages.alreadyBookmarked,
    notThere: () => ErrorMessages.notBookmarked,
  },
};
