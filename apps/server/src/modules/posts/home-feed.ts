import type { FeedQuery, Post, PostPage, UserStub } from '@perch/contract';
import { decodeTime } from 'ulid';
import type { Viewer } from '../../lib/viewer';
import { encodeCursor } from '../../lib/cursor';
import { extended } from '../../lib/serialized';
import type { TimelineKey, TimelinesService } from '../timelines/timelines.service';
import type { ListedPage, ListedPost, PostPresenter } from '../../read-model/post/presenter';
import type { PostKeyset } from './posts.repository';

/** A repost by a member the viewer follows: what Home reads besides posts below the timeline. */
export interface RepostKey {
  id: string;
  post_id: string;
  user_id: string;
}

export interface HomeFeedDeps {
  timelines: Pick<TimelinesService, 'page'>;
  hydrate: PostPresenter['hydrate'];
  present: PostPresenter['present'];
  /** Member summaries: the reposter a post brought by a repost names. */
  authors: { of(ids: readonly string[]): Promise<UserStub[]> };
  /** Home computed from follows, for posts older than the timeline reaches. */
  fromFollows: (
    viewer: Viewer,
    after: readonly [number, string],
    limit: number,
    hidden: readonly string[],
  ) => Promise<ListedPage>;
  /** The newest repost of each post by members the viewer follows, below `after` (the query's). */
  repostsFromFollows: (
    viewer: Viewer,
    after: readonly [number, string],
    limit: number,
    hidden: readonly string[],
  ) => Promise<RepostKey[]>;
}

interface Item {
  post: ListedPost;
  /** Where it stands: its repost's id, or its post's. */
  position: string;
  repostedBy?: string;
  cursor: (string | number)[];
}

/** The position of an entry id (a post's or a repost's ULID) in Home's latest order. */
function positionOf(entryId: string): [number, string] {
  return [decodeTime(entryId), entryId];
}

const before = (a: readonly [number, string], b: readonly [number, string]) =>
  a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

const TOP: [number, string] = [Number.MAX_SAFE_INTEGER, 'Z'.repeat(26)];

/** Posts in the order of their keys, each once (at its newest place), with its cursor. */
async function itemsOf(
  hydrate: HomeFeedDeps['hydrate'],
  keys: readonly TimelineKey[],
  viewerId: string,
  seen: Set<string>,
): Promise<Item[]> {
  const fresh: TimelineKey[] = [];
  for (const key of keys) {
    if (seen.has(key.id)) continue;
    seen.add(key.id);
    fresh.push(key);
  }
  const hydrated = await hydrate(
    fresh.map((key) => key.id),
    viewerId,
  );
  const posts = new Map(hydrated.map((post) => [post.view.row.id, post]));
  const items: Item[] = [];
  for (const key of fresh) {
    const post = posts.get(key.id);
    if (!post) continue;
    const position = key.entryId ?? key.id;
    const cursor =
      key.likeCount === undefined
        ? positionOf(position)
        : [key.likeCount, key.createdAt ?? post.view.row.created_at, post.view.row.id];
    items.push({ post, position, repostedBy: key.repostedBy, cursor });
  }
  return items;
}

/**
 * Home read from the member's timeline: a page of entries, cards from the card cache, and, past
 * the oldest entry the timeline holds (or when the member keeps none yet), the posts and reposts
 * of the query over follows. A post reposted by members the viewer follows names the newest of
 * them (`repostedBy`) and shows once. Null when the member keeps no timeline and asks for an
 * order other than the latest (the caller answers from follows alone).
 */
export function createHomeFeed(deps: HomeFeedDeps) {
  const { timelines, hydrate, present, authors } = deps;

  /** Posts and reposts from follows below `from`, newest first, deduplicated against `seen`. */
  async function olderFromFollows(
    viewer: Viewer,
    from: readonly [number, string],
    limit: number,
    hidden: readonly string[],
    seen: Set<string>,
  ): Promise<{ items: Item[]; more: boolean }> {
    const [older, reposts] = await Promise.all([
      deps.fromFollows(viewer, from, limit, hidden),
      deps.repostsFromFollows(viewer, from, limit + 1, hidden),
    ]);
    const keys: TimelineKey[] = [
      ...older.posts.map((post): TimelineKey => ({ id: post.view.row.id })),
      ...reposts.map((r) => ({ id: r.post_id, entryId: r.id, repostedBy: r.user_id })),
    ].sort((a, b) => ((b.entryId ?? b.id) > (a.entryId ?? a.id) ? 1 : -1));
    const page = keys.slice(0, limit);
    const items = await itemsOf(hydrate, page, viewer.id, seen);
    return { items, more: older.more || reposts.length > limit || keys.length > limit };
  }

  /** The posts as the viewer sees them, a repost's naming its reposter (gone reposters: left out). */
  async function presented(items: readonly Item[], viewer: Viewer): Promise<Post[]> {
    const reposterIds = [...new Set(items.flatMap((item) => item.repostedBy ?? []))];
    const reposters = new Map((await authors.of(reposterIds)).map((stub) => [stub.id, stub]));
    const posts: Post[] = [];
    for (const item of items) {
      const post = present(item.post, viewer);
      if (item.repostedBy === undefined) {
        posts.push(post);
        continue;
      }
      const reposter = reposters.get(item.repostedBy);
      if (reposter) posts.push(extended(post, 'repostedBy', reposter));
    }
    return posts;
  }

  return async function home(
    viewer: Viewer,
    query: FeedQuery,
    after: PostKeyset | null,
    hidden: readonly string[],
  ): Promise<PostPage | null> {
    const { limit } = query;
    const latestAfter = after?.length === 2 ? after : null;
    const page = await timelines.page(viewer.id, query.sort, after, limit, hidden);
    const seen = new Set<string>();
    let items: Item[];
    let more: boolean;
    if (!page) {
      if (query.sort !== 'latest') return null;
      ({ items, more } = await olderFromFollows(viewer, latestAfter ?? TOP, limit, hidden, seen));
    } else {
      // The key past the page only tells that more follow: its card is not read.
      items = await itemsOf(hydrate, page.keys.slice(0, limit), viewer.id, seen);
      more = page.keys.length > limit;
      if (!more && page.floor) {
        // The timeline holds no more: continue below its oldest entry (or the cursor, if lower).
        const floor = positionOf(page.floor);
        const from = latestAfter && before(latestAfter, floor) ? latestAfter : floor;
        const older = await olderFromFollows(viewer, from, limit - items.length, hidden, seen);
        items.push(...older.items);
        more = older.more;
      }
    }
    const last = items[items.length - 1];
    return {
      posts: await presented(items, viewer),
      nextCursor: more && last ? encodeCursor(last.cursor) : null,
    };
  };
}
