import type { FeedQuery, Post, PostPage } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { decodeCursor, pageEnding } from '../../lib/cursor';
import type { ListedPage, ListedPost } from '../../read-model/post/presenter';
import { createHomeFeed } from './home-feed';
import type { PostsDeps } from './posts.deps';
import * as repo from './posts.repository';

export const FIRST_PAGE_SIZE = 20;

const DAY = 24 * 60 * 60 * 1000;
const HOME_WINDOWS_DAYS = [7, 60];

function keysetOf(query: FeedQuery): repo.PostKeyset | null {
  if (!query.cursor) return null;
  return query.sort === 'trending'
    ? decodeCursor(query.cursor, ['count', 'number', 'string'] as const)
    : decodeCursor(query.cursor, ['number', 'string'] as const);
}

/**
 * Lower time bounds to try, narrowest first, ending with none. A member following hundreds of
 * people has a full page of news within days; scanning every post their follows ever wrote to find
 * it is what made the home feed slow. When a window holds too few posts, the next one is tried.
 */
function timeWindows(query: repo.PostListQuery): (number | null)[] {
  const byAuthors = query.filter.kind === 'home' || query.filter.kind === 'unfollowed';
  if (!byAuthors || query.sort !== 'latest') return [null];
  const newest = query.after ? query.after[0] : Date.now();
  return [...HOME_WINDOWS_DAYS.map((days) => newest - days * DAY), null];
}

function cursorValues(sort: FeedQuery['sort']) {
  return ({ view: { row } }: ListedPost) =>
    sort === 'trending' ? [row.like_count, row.created_at, row.id] : [row.created_at, row.id];
}

/**
 * The lists of posts (everyone's, Home, Explore, liked, a member's): a page of ids from the
 * database or the member's timeline, their posts from the presenter.
 */
export function createPostLists({
  reads,
  presenter,
  timelines,
  users,
  hidden,
  authors,
}: PostsDeps) {
  /** A page of a member's posts in time order, views read with the page (see authorPostRows). */
  async function authorPage(
    userId: string,
    sort: 'latest' | 'oldest',
    base: repo.PostListQuery,
  ): Promise<ListedPage> {
    const after = base.after?.length === 2 ? base.after : null;
    const rows = await repo.authorPostRows(reads, { userId, sort, after, limit: base.limit });
    const posts = await presenter.hydrateRows(rows.slice(0, base.limit), base.viewerId);
    return { posts, more: rows.length > base.limit };
  }

  /**
   * A page of posts as the query over posts computes it. The query reads one key more, to tell
   * whether more follow; that post's view is not read (on a member's page it is a cold row).
   */
  async function queryPage(base: repo.PostListQuery): Promise<ListedPage> {
    const { filter, sort } = base;
    if (filter.kind === 'author' && sort !== 'trending')
      return authorPage(filter.userId, sort, base);
    let keys: repo.PostKeys = { ids: [], rows: null };
    for (const since of timeWindows(base)) {
      keys = await repo.listPostKeys(reads, { ...base, since });
      if (keys.ids.length > base.limit) break;
    }
    const rows = keys.rows?.slice(0, base.limit) ?? null;
    const posts = await presenter.hydrate(keys.ids.slice(0, base.limit), base.viewerId, rows);
    return { posts, more: keys.ids.length > base.limit };
  }

  const home = createHomeFeed({
    timelines,
    hydrate: presenter.hydrate,
    present: presenter.present,
    authors,
    repostsFromFollows: (viewer, after, limit, hiddenAuthors) =>
      repo.repostsByFollowees(reads, viewer.id, after[1], limit, hiddenAuthors),
    fromFollows: (viewer, after, limit, hiddenAuthors) =>
      queryPage({
        viewerId: viewer.id,
        filter: { kind: 'home', viewerId: viewer.id },
        sort: 'latest',
        after,
        limit,
        hidden: hiddenAuthors,
      }),
  });

  async function list(
    viewer: Viewer | null,
    requested: repo.PostFilter,
    query: FeedQuery,
  ): Promise<PostPage> {
    // Explore scans the newest posts for those of unfollowed authors: when nearly everyone is
    // followed, it is quicker to seek the few unfollowed authors' posts one author at a time.
    const filter: repo.PostFilter =
      requested.kind === 'explore' && (await users.followsNearlyEveryone(requested.viewerId))
        ? { kind: 'unfollowed', viewerId: requested.viewerId }
        : requested;
    const after = keysetOf(query);
    // A member's own page shows all of their posts (it answers 404 across a block instead).
    const hiddenAuthors =
      filter.kind === 'author' ? [] : await hidden.hiddenFor(viewer?.id ?? null);
    if (filter.kind === 'home' && viewer) {
      const page = await home(viewer, query, after, hiddenAuthors);
      if (page) return page;
    }
    const { posts, more } = await queryPage({
      viewerId: viewer?.id ?? null,
      filter,
      sort: query.sort,
      after,
      limit: query.limit,
      hidden: hiddenAuthors,
    });
    const { items, nextCursor } = pageEnding(posts, more, cursorValues(query.sort));
    return { posts: items.map((post) => presenter.present(post, viewer)), nextCursor };
  }

  return {
    list,
    /** What the original API answered to every post mutation, bounded to the first page. */
    latestPage: async (viewer: Viewer): Promise<Post[]> => {
      const page = await list(viewer, { kind: 'all' }, { sort: 'latest', limit: FIRST_PAGE_SIZE });
      return page.posts;
    },
  };
}
