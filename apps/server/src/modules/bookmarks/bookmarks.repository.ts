import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

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
