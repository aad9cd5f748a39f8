import {
  ErrorMessages,
  type FeedQuery,
  type PageQuery,
  type Post,
  type PostPage,
  type PreviewCard,
} from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { notFound } from '../../lib/errors';
import { bookmarkedPosts } from './bookmarked';
import { createPost } from './create';
import { deletePost } from './delete';
import { editPost } from './edit';
import { createPostLists } from './list';
import { lockedPost, openPost, postExists, readPost } from './open';
import { pinnedPosts } from './pinned';
import { interactorIds, repostById, repostsOf } from './reposts';
import type { Db, PostsServiceDeps } from './posts.deps';
import * as repo from './posts.repository';
import * as writes from './posts.writes';

export { FIRST_PAGE_SIZE } from './list';
export type { PostsServiceDeps } from './posts.deps';

/** A post as read for a change under it (lockedPost), with the viewer's state asked for. */
export type LockedPost = repo.PostCardRow;
/** Which of the viewer's states of a post a change reads with it. */
export type ViewerStateRead = repo.MarkRead;
export type FeedKind = 'home' | 'explore' | 'liked';

/**
 * Posts and their lists. Each use case is a file of its own (create.ts, edit.ts, delete.ts,
 * list.ts, open.ts, bookmarked.ts, pinned.ts); this assembles them. Likes, bookmarks and pins are
 * interactions (modules/interactions).
 */
export function createPostsService(serviceDeps: PostsServiceDeps) {
  const deps = { ...serviceDeps, reads: serviceDeps.reads ?? serviceDeps.db };
  const { presenter, users, hidden } = deps;
  const { list, latestPage } = createPostLists(deps);

  return {
    card: (postId: string, viewer: Viewer | null, within?: Db): Promise<Post> =>
      readPost(deps, postId, viewer, within),
    latestPage,
    lockedPost: (trx: Db, postId: string, viewer: Viewer, state: ViewerStateRead) =>
      lockedPost(deps, trx, postId, viewer, state),

    all: (viewer: Viewer | null, query: FeedQuery) => list(viewer, { kind: 'all' }, query),
    feed: (viewer: Viewer, kind: FeedKind, query: FeedQuery) =>
      list(viewer, { kind, viewerId: viewer.id }, query),
    open: (postId: string, viewer: Viewer | null) => openPost(deps, postId, viewer),

    async byAuthor(username: string, viewer: Viewer | null, query: FeedQuery): Promise<PostPage> {
      const authorId = await users.idOf(username);
      if (!authorId || (await hidden.separated(viewer?.id ?? null, authorId))) {
        throw notFound(ErrorMessages.userNotFound);
      }
      return list(viewer, { kind: 'author', userId: authorId }, query);
    },
    /** The member's pinned posts, newest pin first (see pinned.ts). */
    pinned: (username: string, viewer: Viewer | null) => pinnedPosts(deps, username, viewer),
    bookmarked: (viewer: Viewer, query: Parameters<typeof bookmarkedPosts>[2]) =>
      bookmarkedPosts(deps, viewer, query),
    /** The posts of `ids` that exist, in that order, as the viewer sees them (see packMany). */
    byIds: (ids: readonly string[], viewer: Viewer | null, rows: readonly number[] | null = null) =>
      presenter.packMany(ids, viewer, rows),
    exists: (postId: string, viewer: Viewer | null = null) => postExists(deps, postId, viewer),
    /** When each of these members last posted (ms); those who never did are left out. */
    lastPostTimes: (userIds: readonly string[]) => repo.lastPostTimes(deps.reads, userIds),
    /** Who liked or reposted a post, newest first (see reposts.ts). */
    interactors: (
      table: 'likes' | 'reposts',
      postId: string,
      viewer: Viewer | null,
      query: PageQuery,
    ) => interactorIds(deps, table, postId, viewer, query),
    /** The reposts of these (post, member) pairs, with their ids. */
    repostsOf: (pairs: readonly { postId: string; userId: string }[]) => repostsOf(deps, pairs),
    repostById: (id: string) => repostById(deps, id),

    /** Comments update the post's counter in their own transaction. */
    adjustCommentCount: writes.adjustCommentCount,
    /** After a change under the post committed: its view is read again. */
    changed: (postId: string): void => {
      presenter.invalidate.forget(postId);
    },
    /** How many posts' texts changed or posts went so far (see PostViewCache.rewrites). */
    rewrites: presenter.rewrites,
    /** A row read for a change (lockedPost), as the API answers it (the viewer's vote `within`). */
    asPost: presenter.fromRow,
    /** A row read for a change without the viewer's state, with the state cached for them. */
    asMarkedPost: presenter.fromRowWithViewerState,

    /**
     * The post's author, text and card JSON, locked for a change of its card in `trx`; undefined
     * when it is gone (the card worker, modules/preview-cards).
     */
    lockedForCard: (trx: Db, postId: string) => repo.lockPostForCard(trx, postId),
    /** Shows the card on the post, or none (in the caller's transaction, after lockedForCard). */
    showCard: (trx: Db, postId: string, card: PreviewCard | null) =>
      writes.setPreviewCard(trx, postId, card === null ? null : JSON.stringify(card)),

    create: (viewer: Viewer, input: Parameters<typeof createPost>[2], idempotencyKey?: string) =>
      createPost(deps, viewer, input, idempotencyKey),
    edit: (viewer: Viewer, postId: string, input: Parameters<typeof editPost>[3]) =>
      editPost(deps, viewer, postId, input),
    remove: (viewer: Viewer, postId: string) => deletePost(deps, viewer, postId),
  };
}

export type PostsService = ReturnType<typeof createPostsService>;
