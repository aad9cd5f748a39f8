import { ErrorMessages, type BookmarkPage, type PageQuery, type Post } from '@perch/contract';
import type { Viewer } from '../../auth/viewer';
import type { Transact } from '../../events/transactions';
import { badRequest } from '../../lib/errors';
import { FIRST_PAGE_SIZE, type PostsService } from '../posts/posts.service';
import { deleteBookmark, insertBookmark } from './bookmarks.repository';

export interface BookmarksServiceDeps {
  transact: Transact;
  posts: Pick<PostsService, 'bookmarked' | 'lockedPost' | 'card'>;
}

export function createBookmarksService({ transact, posts }: BookmarksServiceDeps) {
  const list = (viewer: Viewer, query: PageQuery): Promise<BookmarkPage> =>
    posts.bookmarked(viewer, query);

  /** Adding and removing share everything but the direction of the change. */
  function change(viewer: Viewer, postId: string, add: boolean): Promise<Post> {
    return transact(async (trx, events) => {
      await posts.lockedPost(trx, postId);
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
      return posts.card(postId, viewer, trx);
    });
  }

  return {
    list,
    firstPage: async (viewer: Viewer) => (await list(viewer, { limit: FIRST_PAGE_SIZE })).bookmarks,
    add: (viewer: Viewer, postId: string) => change(viewer, postId, true),
    remove: (viewer: Viewer, postId: string) => change(viewer, postId, false),
  };
}

export type BookmarksService = ReturnType<typeof createBookmarksService>;
