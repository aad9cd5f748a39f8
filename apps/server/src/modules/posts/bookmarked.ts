import type { BookmarkPage, PageQuery } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { decodeCursor, pageEnding } from '../../lib/cursor';
import type { PostsDeps } from './posts.deps';
import * as repo from './posts.repository';

/** The viewer's bookmarked posts, newest bookmark first. */
export async function bookmarkedPosts(
  { reads, presenter, hidden }: Pick<PostsDeps, 'reads' | 'presenter' | 'hidden'>,
  viewer: Viewer,
  query: PageQuery,
): Promise<BookmarkPage> {
  const after = query.cursor ? decodeCursor(query.cursor, ['number', 'string'] as const) : null;
  const keys = await repo.listBookmarkKeys(reads, {
    viewerId: viewer.id,
    after,
    limit: query.limit,
    hidden: await hidden.hiddenFor(viewer.id),
  });
  const savedAt = new Map(keys.map((key) => [key.id, key.bookmarked_at]));
  const posts = await presenter.hydrate(
    keys.slice(0, query.limit).map((key) => key.id),
    viewer.id,
  );
  const more = keys.length > query.limit;
  const { items, nextCursor } = pageEnding(posts, more, ({ view: { row } }) => [
    savedAt.get(row.id) ?? 0,
    row.id,
  ]);
  return { bookmarks: items.map((post) => presenter.present(post, viewer)), nextCursor };
}
