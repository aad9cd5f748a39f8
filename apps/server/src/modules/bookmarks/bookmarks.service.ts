import { OWN_BOOKMARK_IDS_MAX, type BookmarkPage, type PageQuery } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Viewer } from '../../lib/viewer';
import type { Database } from '../../platform/db/schema';
import { FIRST_PAGE_SIZE, type PostsService } from '../posts/posts.service';
import { bookmark, type InteractionsService } from '../interactions';
import { listRecentBookmarkedPostIds } from './bookmarks.repository';

export interface BookmarksServiceDeps {
  db: Kysely<Database>;
  posts: Pick<PostsService, 'bookmarked'>;
  interactions: Pick<InteractionsService, 'add' | 'remove'>;
}

export function createBookmarksService({ db, posts, interactions }: BookmarksServiceDeps) {
  const list = (viewer: Viewer, query: PageQuery): Promise<BookmarkPage> =>
    posts.bookmarked(viewer, query);

  return {
    list,
    /** The ids of the member's newest bookmarks, as their own record lists them. */
    recentIds: (userId: string) => listRecentBookmarkedPostIds(db, userId, OWN_BOOKMARK_IDS_MAX),
    firstPage: async (viewer: Viewer) => (await list(viewer, { limit: FIRST_PAGE_SIZE })).bookmarks,
    add: (viewer: Viewer, postId: string) => interactions.add(bookmark, viewer, postId),
    remove: (viewer: Viewer, postId: string) => interactions.remove(bookmark, viewer, postId),
  };
}

export type BookmarksService = ReturnType<typeof createBookmarksService>;
