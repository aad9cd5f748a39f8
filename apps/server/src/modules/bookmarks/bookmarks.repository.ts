import type { Kysely } from 'kysely';
import { compiledCommand } from '../../platform/db/compiled';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

const bookmarkInsert = compiledCommand((db: Db, userId: string, postId: string, at: number) =>
  db
    .insertInto('bookmarks')
    .values({ user_id: userId, post_id: postId, created_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'post_id']).doNothing()),
);

/** true when the bookmark is new. */
export async function insertBookmark(
  db: Db,
  userId: string,
  postId: string,
  at: number,
): Promise<boolean> {
  return (await bookmarkInsert(db, userId, postId, at)) > 0n;
}

const bookmarkDelete = compiledCommand((db: Db, userId: string, postId: string) =>
  db.deleteFrom('bookmarks').where('user_id', '=', userId).where('post_id', '=', postId),
);

export async function deleteBookmark(db: Db, userId: string, postId: string): Promise<boolean> {
  return (await bookmarkDelete(db, userId, postId)) > 0n;
}

/** The ids of the member's newest bookmarks, newest first (bookmarks_user_idx holds them so). */
export async function listRecentBookmarkedPostIds(
  db: Db,
  userId: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('bookmarks')
    .select('post_id')
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('post_id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => row.post_id);
}
