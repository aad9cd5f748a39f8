import {
  ErrorMessages,
  OWN_BOOKMARK_IDS_MAX,
  type BookmarkPage,
  type PageQuery,
  type Post,
} from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Viewer } from '../../lib/viewer';
import type { Database } from '../../platform/db/schema';
import type { Transact } from '../../platform/events/transactions';
import { badRequest } from '../../lib/errors';
import { FIRST_PAGE_SIZE, type PostsService } from '../posts/posts.service';
import {
  deleteBookmark,
  insertBookmark,
  listRecentBookmarkedPostIds,
} from './bookmarks.repository';

export interface BookmarksServiceDeps {
  db: Kysely<Database>;
  transact: Transact;
  posts: Pick<PostsService, 'bookmarked' | 'lockedPost' | 'asPost'>;
}

export function createBookmarksService({ db, transact, posts }: BookmarksServiceDeps) {
  const list = (viewer: Viewer, query: PageQuery): Promise<BookmarkPage> =>
    posts.bookmarked(viewer, query);

  /** Adding and removing share everything but the direction of the change. */
  async function change(viewer: Viewer, postId: string, add: boolean): Promise<Post> {
    const post = await transact(async (trx, events) => {
      const locked = await posts.lockedPost(trx, postId, viewer, 'liked');
      const changed = add
        ? await insertBookmark(trx, viewer.id, postId, Date.now())
        : await deleteBookmark(trx, viewer.id, postId);
      if (!changed) {
        throw badRequest(add ? ErrorMessages.alreadyBookmarked : ErrorMessages.notBookmarked);
      }
      events.record({
        type: add ? 'bookmark.added' : 'bookmark.removed',
        payload: { userId: viewer.id, postId },
      });
      return posts.asPost({ ...locked, bookmarked: add }, viewer);
    });
    return post;
  }

  return {
    list,
    /** The ids of the member's newest bookmarks, as their own record lists them. */
    recentIds: (userId: string) => listRecentBookmarkedPostIds(db, userId, OWN_BOOKMARK_IDS_MAX),
    firstPage: async (viewer: Viewer) => (await list(viewer, { limit: FIRST_PAGE_SIZE })).bookmarks,
    add: (viewer: Viewer, postId: string) => change(viewer, postId, true),
    remove: (viewer: Viewer, postId: string) => change(viewer, postId, false),
  };
}

export type BookmarksService = ReturnType<typeof createBookmarksService>;
