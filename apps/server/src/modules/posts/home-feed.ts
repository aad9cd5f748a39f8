import type { FeedQuery, PostPage } from '@perch/contract';
import { decodeTime } from 'ulid';
import type { Viewer } from '../../lib/viewer';
import { encodeCursor } from '../../lib/cursor';
import type { TimelinesService } from '../timelines/timelines.service';
import type { ListedPage, ListedPost, PostPresenter } from '../../read-model/post/presenter';
import type { PostKeyset } from './posts.repository';

export interface HomeFeedDeps {
  timelines: Pick<TimelinesService, 'page'>;
  hydrate: PostPresenter['hydrate'];
  present: PostPresenter['present'];
  /** Home computed from follows, for posts older than the timeline reaches. */
  fromFollows: (
    viewer: Viewer,
    after: readonly [number, string],
    limit: number,
    hidden: readonly string[],
  ) => Promise<ListedPage>;
}

interface Item {
  post: ListedPost;
  cursor: (string | number)[];
}

/** The position of a post id in Home's latest order: its ULID's time, then the id. */
function positionOf(postId: string): [number, string] {
  return [decodeTime(postId), postId];
}

const before = (a: readonly [number, string], b: readonly [number, string]) =>
  a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

const latestCursor = (post: ListedPost) => [post.view.row.created_at, post.view.row.id];

/**
 * Home read from the member's timeline: a page of ids, cards from the card cache, and, past the
 * oldest post the timeline holds, the posts of the query over follows. Null when the member keeps
 * no timeline yet (the caller answers from follows alone).
 */
export function createHomeFeed({ timelines, hydrate, present, fromFollows }: HomeFeedDeps) {
  return async function home(
    viewer: Viewer,
    query: FeedQuery,
    after: PostKeyset | null,
    hidden: readonly string[],
  ): Promise<PostPage | null> {
    const { limit } = query;
    const page = await timelines.page(viewer.id, query.sort, after, limit, hidden);
    if (!page) return null;
    const ranks = new Map(page.keys.map((key) => [key.id, key]));
    // The key past the page only tells that more follow: its card is not read.
    const ids = page.keys.slice(0, limit).map((key) => key.id);
    const items: Item[] = (await hydrate(ids, viewer.id)).map((post) => {
      const rank = ranks.get(post.view.row.id);
      return {
        post,
        cursor:
          rank?.likeCount === undefined
            ? latestCursor(post)
            : [rank.likeCount, rank.createdAt ?? post.view.row.created_at, post.view.row.id],
      };
    });
    let more = page.keys.length > limit;
    if (!more && page.floor) {
      // The timeline holds no more: continue below its oldest post (or the cursor, if lower).
      const floor = positionOf(page.floor);
      const from = after?.length === 2 && before(after, floor) ? after : floor;
      const older = await fromFollows(viewer, from, limit - page.keys.length, hidden);
      for (const post of older.posts) items.push({ post, cursor: latestCursor(post) });
      more = older.more;
    }
    const last = items[items.length - 1];
    return {
      posts: items.map(({ post }) => present(post, viewer)),
      nextCursor: more && last ? encodeCursor(last.cursor) : null,
    };
  };
}
