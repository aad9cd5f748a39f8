import type { FeedQuery, Post, PostPage } from '@perch/contract';
import { decodeTime } from 'ulid';
import type { Viewer } from '../../auth/viewer';
import { encodeCursor } from '../../lib/cursor';
import type { TimelineKey, TimelinesService } from '../timelines/timelines.service';
import type { PostCards } from './post-cards';
import { toPost, toPostWithFlags } from './posts.mapper';
import type { PostCardRow, PostKeyset } from './posts.repository';

export interface HomeFeedDeps {
  timelines: Pick<TimelinesService, 'page'>;
  cards: Pick<PostCards, 'of'>;
  /** Home computed from follows, for posts older than the timeline reaches. */
  pull: (viewer: Viewer, after: readonly [number, string], limit: number) => Promise<PostCardRow[]>;
}

interface Item {
  post: Post;
  cursor: (string | number)[];
}

/** The position of a post id in Home's latest order: its ULID's time, then the id. */
function positionOf(postId: string): [number, string] {
  return [decodeTime(postId), postId];
}

const before = (a: readonly [number, string], b: readonly [number, string]) =>
  a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

/**
 * Home read from the member's timeline: a page of ids with the member's flags, cards from the card
 * cache, and, past the oldest post the timeline holds, the posts of the query over follows. Null
 * when the member keeps no timeline yet (the caller answers from follows alone).
 */
export function createHomeFeed({ timelines, cards, pull }: HomeFeedDeps) {
  async function itemsOf(keys: readonly TimelineKey[], viewer: Viewer): Promise<Item[]> {
    const found = await cards.of(keys.map((key) => key.id));
    const items: Item[] = [];
    for (const key of keys) {
      const card = found.get(key.id);
      // A post deleted since the page was read is left out.
      if (!card) continue;
      items.push({
        post: toPostWithFlags(card, key.liked, key.bookmarked, viewer),
        cursor:
          key.likeCount === undefined
            ? [card.created_at, card.id]
            : [key.likeCount, key.createdAt ?? card.created_at, card.id],
      });
    }
    return items;
  }

  return async function home(
    viewer: Viewer,
    query: FeedQuery,
    after: PostKeyset | null,
  ): Promise<PostPage | null> {
    const { limit } = query;
    const page = await timelines.page(viewer.id, query.sort, after, limit);
    if (!page) return null;
    const items = await itemsOf(page.keys, viewer);
    let more = page.keys.length > limit;
    if (!more && page.floor) {
      // The timeline holds no more: continue below its oldest post (or the cursor, if lower).
      const floor = positionOf(page.floor);
      const from = after?.length === 2 && before(after, floor) ? after : floor;
      const rows = await pull(viewer, from, limit + 1 - page.keys.length);
      for (const row of rows) {
        items.push({ post: toPost(row, viewer), cursor: [row.created_at, row.id] });
      }
      more = page.keys.length + rows.length > limit;
    }
    const shown = items.slice(0, limit);
    const last = shown[shown.length - 1];
    return {
      posts: shown.map((item) => item.post),
      nextCursor: more && last ? encodeCursor(last.cursor) : null,
    };
  };
}
