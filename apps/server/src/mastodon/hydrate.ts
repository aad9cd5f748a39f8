import type { Comment, mastodon, Post } from '@perch/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Viewer } from '../lib/viewer';
import { linksOf } from './context';
import { toAccount } from './entities/account';
import { toCommentStatus, toReblog, toStatus, type StatusContext } from './entities/status';
import { commentStatusId } from './statuses-ids';

/** A repost as its reblog status names it. */
export interface RepostRef {
  id: string;
  postId: string;
  userId: string;
}

/**
 * Renders Perch's posts and comments as Mastodon statuses for one request: the accounts of a
 * page's authors, reposters and quoted authors are read together, once a page, as are the posts
 * they quote and the reposts that Home's reblogs stand for.
 */
export function statusRenderer(app: FastifyInstance, request: FastifyRequest) {
  const { users, posts } = app.services;
  const viewer: Viewer | null = request.viewer ?? null;
  const viewerId = viewer?.id ?? null;
  const links = linksOf(app, request);

  async function contextFor(
    page: readonly Post[],
    extraMembers: readonly string[],
  ): Promise<StatusContext> {
    const quoteIds = page.flatMap((post) =>
      post.quote?.state === 'available' ? [post.quote.post._id] : [],
    );
    const quotedPosts =
      quoteIds.length > 0 ? await posts.byIds([...new Set(quoteIds)], viewer) : [];
    const memberIds = new Set<string>(extraMembers);
    for (const post of [...page, ...quotedPosts]) memberIds.add(post.userId);
    for (const post of page) if (post.repostedBy) memberIds.add(post.repostedBy._id);
    const members = await users.byIds([...memberIds], viewerId);
    return {
      links,
      viewerId,
      accounts: new Map(members.map((user) => [user._id, toAccount(user, links)])),
      quoted: new Map(quotedPosts.map((post) => [post._id, post])),
    };
  }

  /** The ids of the reposts that brought posts into Home, by post id and reposter. */
  async function repostIds(page: readonly Post[]): Promise<Map<string, string>> {
    const pairs = page.flatMap((post) =>
      post.repostedBy ? [{ postId: post._id, userId: post.repostedBy._id }] : [],
    );
    if (pairs.length === 0) return new Map();
    const reposts = await posts.repostsOf(pairs);
    return new Map(reposts.map((repost) => [`${repost.postId} ${repost.userId}`, repost.id]));
  }

  return {
    links,
    viewer,

    /** Posts as statuses, in order; a post Home shows for a repost as that repost's reblog. */
    async statuses(page: readonly Post[]): Promise<mastodon.Status[]> {
      const [context, reposts] = await Promise.all([contextFor(page, []), repostIds(page)]);
      const statuses: mastodon.Status[] = [];
      for (const post of page) {
        const reposter = post.repostedBy?._id;
        const repostId = reposter && reposts.get(`${post._id} ${reposter}`);
        const status =
          reposter && repostId
            ? toReblog(post, { id: repostId, userId: reposter }, context)
            : toStatus(post, context);
        if (status) statuses.push(status);
      }
      return statuses;
    },

    async status(post: Post): Promise<mastodon.Status | null> {
      return toStatus(post, await contextFor([post], []));
    },

    async reblog(post: Post, repost: RepostRef): Promise<mastodon.Status | null> {
      return toReblog(post, repost, await contextFor([post], [repost.userId]));
    },

    /** A post's comments as statuses replying to it, in order. */
    async comments(post: Post, comments: readonly Comment[]): Promise<mastodon.Status[]> {
      const authors = comments.flatMap((comment) => comment.userId ?? []);
      const context = await contextFor([], authors);
      return comments.flatMap(
        (comment) =>
          toCommentStatus(comment, post, commentStatusId(post._id, comment._id), context) ?? [],
      );
    },

    /** The repost with this id, or a member's of a post; undefined when there is none. */
    async repost(
      by: { id: string } | { postId: string; userId: string },
    ): Promise<RepostRef | undefined> {
      if ('id' in by) return posts.repostById(by.id);
      const [repost] = await posts.repostsOf([by]);
      return repost;
    },
  };
}

export type StatusRenderer = ReturnType<typeof statusRenderer>;
