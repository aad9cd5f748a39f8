import {
  ErrorMessages,
  POST_EMPTY,
  type FeedQuery,
  type Post,
  type PostInput,
  type PostPage,
} from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { decodeCursor, pageOf } from '../../lib/cursor';
import { badRequest, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Viewer } from '../auth/auth.service';
import { assertUsableMediaUrl } from '../media/media.service';
import { findUserByUsername } from '../users/users.repository';
import { toPost } from './posts.mapper';
import * as repo from './posts.repository';

type Db = Kysely<Database>;
export type FeedKind = 'home' | 'explore' | 'liked';

export const FIRST_PAGE_SIZE = 20;

function keysetOf(query: FeedQuery): repo.PostKeyset | null {
  if (!query.cursor) return null;
  return query.sort === 'trending'
    ? decodeCursor(query.cursor, ['number', 'number', 'string'] as const)
    : decodeCursor(query.cursor, ['number', 'string'] as const);
}

const DAY = 24 * 60 * 60 * 1000;
const HOME_WINDOWS_DAYS = [7, 60];

/**
 * Lower time bounds to try, narrowest first, ending with none. A member following hundreds of
 * people has a full page of news within days; scanning every post their follows ever wrote to find
 * it is what made the home feed slow. When a window holds too few posts, the next one is tried.
 */
function timeWindows(query: repo.PostListQuery): (number | null)[] {
  if (query.filter.kind !== 'home' || query.sort !== 'latest') return [null];
  const newest = query.after ? query.after[0] : Date.now();
  return [...HOME_WINDOWS_DAYS.map((days) => newest - days * DAY), null];
}

function cursorValues(sort: FeedQuery['sort']) {
  return (row: repo.PostCardRow) =>
    sort === 'trending' ? [row.like_count, row.created_at, row.id] : [row.created_at, row.id];
}

export interface PostsServiceDeps {
  /** Frees an image no post or profile uses any more; called after the change committed. */
  releaseMedia?: (url: string | null) => Promise<unknown>;
}

export function createPostsService(db: Db, { releaseMedia }: PostsServiceDeps = {}) {
  async function list(
    viewer: Viewer | null,
    filter: repo.PostFilter,
    query: FeedQuery,
  ): Promise<PostPage> {
    const base = {
      viewerId: viewer?.id ?? null,
      filter,
      sort: query.sort,
      after: keysetOf(query),
      limit: query.limit,
    };
    let rows: repo.PostCardRow[] = [];
    for (const since of timeWindows(base)) {
      rows = await repo.listPostCards(db, { ...base, since });
      if (rows.length > query.limit) break;
    }
    const { items, nextCursor } = pageOf(rows, query.limit, cursorValues(query.sort));
    return { posts: items.map((row) => toPost(row, viewer)), nextCursor };
  }

  async function card(postId: string, viewer: Viewer | null, dbOrTrx: Db = db): Promise<Post> {
    const row = await repo.findPostCard(dbOrTrx, postId, viewer?.id ?? null);
    if (!row) throw notFound(ErrorMessages.postNotFound);
    return toPost(row, viewer);
  }

  /** The post, locked for a change in this transaction (see lockPostForChange); 404 if gone. */
  async function lockedPost(trx: Db, postId: string): Promise<repo.LockedPost> {
    const post = await repo.lockPostForChange(trx, postId);
    if (!post) throw notFound(ErrorMessages.postNotFound);
    return post;
  }

  /** What the original API answered to every post mutation, bounded to the first page. */
  async function latestPage(viewer: Viewer): Promise<Post[]> {
    const page = await list(viewer, { kind: 'all' }, { sort: 'latest', limit: FIRST_PAGE_SIZE });
    return page.posts;
  }

  return {
    card,
    latestPage,
    lockedPost,

    all: (viewer: Viewer | null, query: FeedQuery) => list(viewer, { kind: 'all' }, query),

    feed: (viewer: Viewer, kind: FeedKind, query: FeedQuery) =>
      list(viewer, { kind, viewerId: viewer.id }, query),

    async byAuthor(username: string, viewer: Viewer | null, query: FeedQuery): Promise<PostPage> {
      const author = await findUserByUsername(db, username);
      if (!author) throw notFound(ErrorMessages.userNotFound);
      return list(viewer, { kind: 'author', userId: author.id }, query);
    },

    async create(viewer: Viewer, input: PostInput): Promise<Post> {
      const now = Date.now();
      const id = newId(now);
      await db.transaction().execute(async (trx) => {
        await assertUsableMediaUrl(trx, viewer.id, input.mediaURL);
        await repo.insertPost(trx, {
          id,
          user_id: viewer.id,
          content: input.content ?? '',
          media_url: input.mediaURL ?? null,
          created_at: now,
        });
        await repo.adjustPostsCount(trx, viewer.id, 1);
      });
      return card(id, viewer);
    },

    async edit(viewer: Viewer, postId: string, input: PostInput): Promise<Post> {
      // Locked so that two concurrent edits apply one after the other, each to the other's result.
      const { edited, replacedMedia } = await db.transaction().execute(async (trx) => {
        const post = await lockedPost(trx, postId);
        if (post.user_id !== viewer.id) throw badRequest(ErrorMessages.editPostNotOwner);
        const content = input.content ?? post.content;
        const mediaUrl = input.mediaURL === undefined ? post.media_url : input.mediaURL;
        if (content.trim() === '' && !mediaUrl) throw badRequest(POST_EMPTY);
        const mediaChanged = mediaUrl !== post.media_url;
        if (mediaChanged) await assertUsableMediaUrl(trx, viewer.id, mediaUrl);
        await repo.updatePost(trx, postId, {
          content,
          media_url: mediaUrl,
          updated_at: Date.now(),
        });
        return {
          edited: await card(postId, viewer, trx),
          replacedMedia: mediaChanged ? post.media_url : null,
        };
      });
      await releaseMedia?.(replacedMedia);
      return edited;
    },

    async remove(viewer: Viewer, postId: string): Promise<void> {
      const mediaUrl = await db.transaction().execute(async (trx) => {
        const post = await lockedPost(trx, postId);
        if (post.user_id !== viewer.id) throw badRequest(ErrorMessages.deletePostNotOwner);
        await repo.deletePost(trx, postId);
        await repo.adjustPostsCount(trx, viewer.id, -1);
        return post.media_url;
      });
      await releaseMedia?.(mediaUrl);
    },

    async like(viewer: Viewer, postId: string): Promise<Post> {
      return db.transaction().execute(async (trx) => {
        await lockedPost(trx, postId);
        if (!(await repo.insertLike(trx, postId, viewer.id, Date.now()))) {
          throw badRequest(ErrorMessages.alreadyLiked);
        }
        await repo.adjustLikeCount(trx, postId, 1);
        return card(postId, viewer, trx);
      });
    },

    async dislike(viewer: Viewer, postId: string): Promise<Post> {
      return db.transaction().execute(async (trx) => {
        const post = await lockedPost(trx, postId);
        if (!(await repo.deleteLike(trx, postId, viewer.id))) {
          throw badRequest(
            post.like_count === 0 ? ErrorMessages.likeBelowZero : ErrorMessages.alreadyDisliked,
          );
        }
        await repo.adjustLikeCount(trx, postId, -1);
        return card(postId, viewer, trx);
      });
    },
  };
}

export type PostsService = ReturnType<typeof createPostsService>;
