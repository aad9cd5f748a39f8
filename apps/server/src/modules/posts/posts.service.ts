import {
  ErrorMessages,
  POST_EMPTY,
  type BookmarkPage,
  type FeedQuery,
  type PageQuery,
  type Post,
  type PostInput,
  type PostPage,
} from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Viewer } from '../../lib/viewer';
import type { Database } from '../../platform/db/schema';
import type { Transact } from '../../platform/events/transactions';
import { decodeCursor, pageEnding } from '../../lib/cursor';
import { badRequest, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { MediaService } from '../media/media.service';
import type { IdempotencyService } from '../idempotency/idempotency.service';
import type { HiddenMembers } from '../safety/hidden-members';
import type { UsersService } from '../users/users.service';
import { recordMentions, type EntitiesService } from '../discovery/entities.service';
import { encodeEntities } from '../discovery/entities.codec';
import type { TimelinesService } from '../timelines/timelines.service';
import type { MemberSummaries } from '../../read-model/member/summaries';
import { authorColumns } from '../users/users.mapper';
import { createHomeFeed } from './home-feed';
import type { PostCards } from './post-cards';
import type { ReaderFlags } from './reader-flags';
import { createFlagger, createHydrator, type PagePost, type PulledPage } from './hydrate';
import { faceToPost, toPost } from './posts.mapper';
import * as repo from './posts.repository';
import * as writes from './posts.writes';

type Db = Kysely<Database>;
/** A post as read for a change under it (lockedPost), with the viewer's state asked for. */
export type LockedPost = repo.PostCardRow;
/** Which of the viewer's states of a post a change reads with it. */
export type ViewerStateRead = repo.MarkRead;
export type FeedKind = 'home' | 'explore' | 'liked';

export const FIRST_PAGE_SIZE = 20;

function keysetOf(query: FeedQuery): repo.PostKeyset | null {
  if (!query.cursor) return null;
  return query.sort === 'trending'
    ? decodeCursor(query.cursor, ['count', 'number', 'string'] as const)
    : decodeCursor(query.cursor, ['number', 'string'] as const);
}

/** An image description as stored: spaces around it dropped, none for an empty one. */
function altTextOf(text: string | null | undefined): string | null {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

const DAY = 24 * 60 * 60 * 1000;
const HOME_WINDOWS_DAYS = [7, 60];

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
  return ({ face: { card } }: PagePost) =>
    sort === 'trending' ? [card.like_count, card.created_at, card.id] : [card.created_at, card.id];
}

export interface PostsServiceDeps {
  db: Db;
  /** Where lists are read (a read-only connection on SQLite); db by default. */
  reads?: Db;
  timelines: Pick<TimelinesService, 'page' | 'posted'>;
  cards: PostCards;
  /** Members' kept stubs: the author of a post read for a change. */
  authors: Pick<MemberSummaries, 'of'>;
  flags: ReaderFlags;
  transact: Transact;
  media: Pick<MediaService, 'assertUsable'>;
  users: Pick<UsersService, 'idOf' | 'followsNearlyEveryone'>;
  entities: Pick<EntitiesService, 'resolve' | 'record' | 'forgetPost'>;
  /** Whose posts each viewer does not see, and which posts they may not touch. */
  hidden: Pick<HiddenMembers, 'hiddenFor' | 'separated' | 'isBlockedEitherWay'>;
  /** Creates sent again with the same Idempotency-Key answer the first one's post. */
  idempotency: Pick<IdempotencyService, 'replayed' | 'made'>;
}

export function createPostsService({
  db,
  reads = db,
  transact,
  media,
  users,
  timelines,
  cards,
  authors,
  flags,
  entities,
  hidden,
  idempotency,
}: PostsServiceDeps) {
  const hydrate = createHydrator(cards, flags);
  const withFlags = createFlagger(flags);

  /** A page of a member's posts in time order, cards read with the page (see authorPostRows). */
  async function authorPage(
    userId: string,
    sort: 'latest' | 'oldest',
    base: repo.PostListQuery,
  ): Promise<PulledPage> {
    const after = base.after?.length === 2 ? base.after : null;
    const rows = await repo.authorPostRows(reads, { userId, sort, after, limit: base.limit });
    const faces = await cards.fromRows(rows.slice(0, base.limit));
    return { posts: await withFlags(faces, base.viewerId), more: rows.length > base.limit };
  }

  /**
   * A page of posts as the query over posts computes it. The query reads one key more, to tell
   * whether more follow; that post's card is not read (on a member's page it is a cold row).
   */
  async function pullPage(base: repo.PostListQuery): Promise<PulledPage> {
    const { filter, sort } = base;
    if (filter.kind === 'author' && sort !== 'trending')
      return authorPage(filter.userId, sort, base);
    let keys: repo.PostKeys = { ids: [], rows: null };
    for (const since of timeWindows(base)) {
      keys = await repo.listPostKeys(reads, { ...base, since });
      if (keys.ids.length > base.limit) break;
    }
    const rows = keys.rows?.slice(0, base.limit) ?? null;
    const posts = await hydrate(keys.ids.slice(0, base.limit), base.viewerId, rows);
    return { posts, more: keys.ids.length > base.limit };
  }

  const home = createHomeFeed({
    timelines,
    hydrate,
    pull: (viewer, after, limit, hiddenAuthors) =>
      pullPage({
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
    const { posts, more } = await pullPage({
      viewerId: viewer?.id ?? null,
      filter,
      sort: query.sort,
      after,
      limit: query.limit,
      hidden: hiddenAuthors,
    });
    const { items, nextCursor } = pageEnding(posts, more, cursorValues(query.sort));
    return {
      posts: items.map((post) => faceToPost(post.face, post.liked, post.bookmarked, viewer)),
      nextCursor,
    };
  }

  async function card(postId: string, viewer: Viewer | null, dbOrTrx: Db = reads): Promise<Post> {
    const row = await repo.findPostCard(dbOrTrx, postId, viewer?.id ?? null);
    if (!row) throw notFound(ErrorMessages.postNotFound);
    return toPost(row, viewer);
  }

  /**
   * The post, locked for a change in this transaction (see lockPostForChange), with the viewer's
   * `mark` the answer needs; 404 if gone, or if a block stands between the viewer and its author
   * (asked in the transaction: no like, comment, vote or bookmark crosses a block). Its author is
   * their kept stub: joining the members' table read a cold page of it for a third of the row's
   * cost (1,000,000 posts).
   */
  async function lockedPost(
    trx: Db,
    postId: string,
    viewer: Viewer,
    mark: repo.MarkRead,
  ): Promise<repo.PostCardRow> {
    const post = await repo.lockPostForChange(trx, postId, viewer.id, mark);
    if (!post || (await hidden.isBlockedEitherWay(trx, viewer.id, post.user_id))) {
      throw notFound(ErrorMessages.postNotFound);
    }
    const [author] = await authors.of([post.user_id], trx);
    if (!author) throw notFound(ErrorMessages.postNotFound);
    return { ...post, ...authorColumns(author) };
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

    /**
     * A post by direct link: 404 across a block; a muted author's post still opens (the viewer
     * asked for it).
     */
    async open(postId: string, viewer: Viewer | null): Promise<Post> {
      const post = await card(postId, viewer);
      if (await hidden.separated(viewer?.id ?? null, post.author._id)) {
        throw notFound(ErrorMessages.postNotFound);
      }
      return post;
    },

    async byAuthor(username: string, viewer: Viewer | null, query: FeedQuery): Promise<PostPage> {
      const authorId = await users.idOf(username);
      if (!authorId || (await hidden.separated(viewer?.id ?? null, authorId))) {
        throw notFound(ErrorMessages.userNotFound);
      }
      return list(viewer, { kind: 'author', userId: authorId }, query);
    },

    /** The viewer's bookmarked posts, newest bookmark first. */
    async bookmarked(viewer: Viewer, query: PageQuery): Promise<BookmarkPage> {
      const after = query.cursor ? decodeCursor(query.cursor, ['number', 'string'] as const) : null;
      const keys = await repo.listBookmarkKeys(reads, {
        viewerId: viewer.id,
        after,
        limit: query.limit,
        hidden: await hidden.hiddenFor(viewer.id),
      });
      const savedAt = new Map(keys.map((key) => [key.id, key.bookmarked_at]));
      const posts = await hydrate(
        keys.slice(0, query.limit).map((key) => key.id),
        viewer.id,
      );
      const more = keys.length > query.limit;
      const { items, nextCursor } = pageEnding(posts, more, ({ face: { card } }) => [
        savedAt.get(card.id) ?? 0,
        card.id,
      ]);
      return {
        bookmarks: items.map((post) => faceToPost(post.face, post.liked, post.bookmarked, viewer)),
        nextCursor,
      };
    },

    /**
     * The posts of `ids` that exist, in that order, as the viewer sees them; `rows`, when known,
     * their SQLite rowids (see PostCards.of).
     */
    async byIds(
      ids: readonly string[],
      viewer: Viewer | null,
      rows: readonly number[] | null = null,
    ): Promise<Post[]> {
      const posts = await hydrate([...ids], viewer?.id ?? null, rows);
      return posts.map((post) => faceToPost(post.face, post.liked, post.bookmarked, viewer));
    },

    /** Whether the post exists for the viewer (for lists under it): not across a block. */
    async exists(postId: string, viewer: Viewer | null = null): Promise<boolean> {
      const post = await repo.findPostOwner(db, postId);
      return post !== undefined && !(await hidden.separated(viewer?.id ?? null, post.user_id));
    },

    /** Comments keep the post's counter in their own transaction. */
    adjustCommentCount: writes.adjustCommentCount,
    /** After a change under the post committed: its card is read again. */
    changed: (postId: string): void => {
      cards.forget(postId);
    },
    /** How many posts' texts changed or posts went so far (see PostCards.rewrites). */
    rewrites: cards.rewrites,
    /** After the member's bookmarks changed: their flags are read again. */
    marked: (userId: string): void => {
      flags.forget(userId);
    },
    /** A row read for a change (lockedPost), as the API answers it. */
    asPost: toPost,
    /**
     * A row read for a change without the viewer's marks, as the API answers it with the marks
     * kept for the reader (see reader-flags.ts). After the change committed: the marks may be
     * read through another connection.
     */
    async asMarkedPost(row: repo.PostCardRow, viewer: Viewer): Promise<Post> {
      const marks = (await flags.of(viewer.id, [row.id])).get(row.id);
      return toPost(
        { ...row, liked: marks?.liked ?? false, bookmarked: marks?.bookmarked ?? false },
        viewer,
      );
    },

    /** With an idempotency key, a retry answers the post the first request made. */
    async create(viewer: Viewer, input: PostInput, idempotencyKey?: string): Promise<Post> {
      const now = Date.now();
      const made = await transact(async (trx, events): Promise<string | writes.NewPost> => {
        const id = newId(now);
        if (idempotencyKey !== undefined) {
          const earlier = await idempotency.replayed(trx, viewer.id, idempotencyKey, 'post');
          if (earlier !== null) return earlier;
        }
        await media.assertUsable(trx, viewer.id, input.mediaURL);
        const content = input.content ?? '';
        const found = await entities.resolve(trx, content);
        const row = {
          id,
          user_id: viewer.id,
          content,
          entities: encodeEntities(found),
          media_url: input.mediaURL ?? null,
          media_alt: input.mediaURL ? altTextOf(input.mediaAlt) : null,
          created_at: now,
        };
        await writes.insertPost(trx, row);
        await writes.adjustPostsCount(trx, viewer.id, 1);
        const mentioned = await entities.record(trx, 'post', {
          id,
          authorId: viewer.id,
          createdAt: now,
          entities: found,
          fresh: true,
        });
        await timelines.posted(trx, viewer.id, id);
        events.record({ type: 'post.created', payload: { postId: id, authorId: viewer.id } });
        recordMentions(events, { postId: id, commentId: null, authorId: viewer.id }, mentioned);
        if (idempotencyKey !== undefined) {
          await idempotency.made(trx, viewer.id, idempotencyKey, { post_id: id });
        }
        return row;
      });
      // A retry answers the post the first request made, as it is now.
      if (typeof made === 'string') return card(made, viewer);
      // Reading the new post back took 45 µs of the 208 µs a post spent in SQLite.
      const face = await cards.written(writes.writtenRecord(made));
      return face ? faceToPost(face, false, false, viewer) : card(made.id, viewer);
    },

    async edit(viewer: Viewer, postId: string, input: PostInput): Promise<Post> {
      // Locked so that two concurrent edits apply one after the other, each to the other's result.
      const edited = await transact(async (trx, events) => {
        const post = await lockedPost(trx, postId, viewer, 'none');
        if (post.user_id !== viewer.id) throw badRequest(ErrorMessages.editPostNotOwner);
        const content = input.content ?? post.content;
        const mediaUrl = input.mediaURL === undefined ? post.media_url : input.mediaURL;
        if (content.trim() === '' && !mediaUrl) throw badRequest(POST_EMPTY);
        const mediaChanged = mediaUrl !== post.media_url;
        if (mediaChanged) await media.assertUsable(trx, viewer.id, mediaUrl);
        // Another image does not keep the description of the one it replaces.
        const keptAlt = mediaChanged ? null : post.media_alt;
        const mediaAlt = mediaUrl
          ? input.mediaAlt === undefined
            ? keptAlt
            : altTextOf(input.mediaAlt)
          : null;
        const found = await entities.resolve(trx, content);
        await writes.updatePost(trx, postId, {
          content,
          entities: encodeEntities(found),
          media_url: mediaUrl,
          media_alt: mediaAlt,
          updated_at: Date.now(),
        });
        const mentioned = await entities.record(trx, 'post', {
          id: postId,
          authorId: viewer.id,
          createdAt: post.created_at,
          entities: found,
          fresh: false,
        });
        events.record({
          type: 'post.edited',
          payload: {
            postId,
            authorId: viewer.id,
            previousMediaURL: mediaChanged ? post.media_url : null,
          },
        });
        recordMentions(events, { postId, commentId: null, authorId: viewer.id }, mentioned);
        return card(postId, viewer, trx);
      });
      return edited;
    },

    async remove(viewer: Viewer, postId: string): Promise<void> {
      await transact(async (trx, events) => {
        const post = await lockedPost(trx, postId, viewer, 'none');
        if (post.user_id !== viewer.id) throw badRequest(ErrorMessages.deletePostNotOwner);
        // The author's row, then the tags' rows: the order a new post takes them in.
        await writes.adjustPostsCount(trx, viewer.id, -1);
        await entities.forgetPost(trx, postId);
        await writes.deletePost(trx, postId);
        events.record({
          type: 'post.deleted',
          payload: { postId, authorId: viewer.id, mediaURL: post.media_url },
        });
      });
    },
  };
}

export type PostsService = ReturnType<typeof createPostsService>;
