import { ErrorMessages, type BookmarkPage, type PageQuery, type Post } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { decodeCursor, pageOf } from '../../lib/cursor';
import { badRequest } from '../../lib/errors';
import type { Viewer } from '../auth/auth.service';
import { toPost } from '../posts/posts.mapper';
import { listBookmarkedPostCards } from '../posts/posts.repository';
import { createPostsService, FIRST_PAGE_SIZE } from '../posts/posts.service';
import { deleteBookmark, insertBookmark } from './bookmarks.repository';

export function createBookmarksService(db: Kysely<Database>) {
  const posts = createPostsService(db);

  async function list(viewer: Viewer, query: PageQuery): Promise<BookmarkPage> {
    const after = query.cursor ? decodeCursor(query.cursor, ['number', 'string'] as const) : null;
    const rows = await listBookmarkedPostCards(db, {
      viewerId: viewer.id,
      after,
      limit: query.limit,
    });
    const { items, nextCursor } = pageOf(rows, query.limit, (row) => [row.bookmarked_at, row.id]);
    return { bookmarks: items.map((row) => toPost(row, viewer)), nextCursor };
  }

  return {
    list,

    firstPage: async (viewer: Viewer) => (await list(viewer, { limit: FIRST_PAGE_SIZE })).bookmarks,

    async add(viewer: Viewer, postId: string): Promise<Post> {
      return db.transaction().execute(async (trx) => {
        await posts.lockedPost(trx, postId);
        if (!(await insertBookmark(trx, viewer.id, postId, Date.now()))) {
          throw badRequest(ErrorMessages.alreadyBookmarked);
        }
        return posts.card(postId, viewer, trx);
      });
    },

    async remove(viewer: Viewer, postId: string): Promise<Post> {
      return db.transaction().execute(async (trx) => {
        await posts.lockedPost(trx, postId);
        if (!(await deleteBookmark(trx, viewer.id, postId))) {
          throw badRequest(ErrorMessages.notBookmarked);
        }
        return posts.card(postId, viewer, trx);
      });
    },
  };
}
