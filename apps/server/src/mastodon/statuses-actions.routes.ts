import { ErrorMessages, mastodon, type Post } from '@perch/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, notFound } from '../lib/errors';
import { viewerOf } from '../lib/viewer';
import { bookmark, like, pin, repost, type PostInteraction } from '../modules/interactions';
import { MastodonMessages, type MastodonAuth } from './auth';
import { statusRenderer } from './hydrate';
import type { Scope } from './scopes';
import { postIdOf } from './statuses-ids';
import { orNotFound, postStatus } from './statuses-read';

const idParams = z.object({ id: z.string().min(1).max(64) });

/**
 * Perch refuses to add what is there or take off what is not; Mastodon answers the status as it
 * is either way, so these refusals are not failures here.
 */
const ALREADY: ReadonlySet<string> = new Set([
  ErrorMessages.alreadyLiked,
  ErrorMessages.likeBelowZero,
  ErrorMessages.alreadyDisliked,
  ErrorMessages.alreadyBookmarked,
  ErrorMessages.notBookmarked,
  ErrorMessages.alreadyPinned,
  ErrorMessages.notPinned,
  ErrorMessages.alreadyReposted,
  ErrorMessages.notReposted,
]);

/** The interaction made or undone, or the post as it is when it was already so. */
async function changed(
  app: FastifyInstance,
  request: FastifyRequest,
  interaction: PostInteraction,
  added: boolean,
  postId: string,
): Promise<Post> {
  const { interactions, posts } = app.services;
  const viewer = viewerOf(request);
  try {
    const change = added ? interactions.add : interactions.remove;
    return await orNotFound(change(interaction, viewer, postId));
  } catch (error) {
    if (error instanceof AppError && ALREADY.has(error.message)) {
      return orNotFound(posts.open(postId, viewer));
    }
    throw error;
  }
}

interface Action {
  path: string;
  interaction: PostInteraction;
  added: boolean;
  scope: Scope;
  summary: string;
}

const ACTIONS: Action[] = [
  { path: 'favourite', interaction: like, added: true, scope: 'write:favourites', summary: 'Like' },
  {
    path: 'unfavourite',
    interaction: like,
    added: false,
    scope: 'write:favourites',
    summary: 'Take back a like',
  },
  {
    path: 'bookmark',
    interaction: bookmark,
    added: true,
    scope: 'write:bookmarks',
    summary: 'Bookmark',
  },
  {
    path: 'unbookmark',
    interaction: bookmark,
    added: false,
    scope: 'write:bookmarks',
    summary: 'Remove a bookmark',
  },
  { path: 'pin', interaction: pin, added: true, scope: 'write:accounts', summary: 'Pin' },
  { path: 'unpin', interaction: pin, added: false, scope: 'write:accounts', summary: 'Unpin' },
  {
    path: 'unreblog',
    interaction: repost,
    added: false,
    scope: 'write:statuses',
    summary: 'Undo a repost',
  },
];

/**
 * Favourites, reblogs, bookmarks and pins of a status (docs.joinmastodon.org/methods/statuses),
 * each Perch's interaction with the post. They apply to posts: a comment's id answers 404.
 */
export const statusActionsRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (
  app,
  { auth },
) => {
  const schemaOf = (summary: string) => ({
    params: idParams,
    response: { 200: mastodon.statusSchema },
    summary,
  });
  for (const action of ACTIONS) {
    app.post(
      `/statuses/:id/${action.path}`,
      { preHandler: auth.member(action.scope), schema: schemaOf(action.summary) },
      async (request) => {
        const postId = postIdOf(request.params.id);
        const post = await changed(app, request, action.interaction, action.added, postId);
        return postStatus(statusRenderer(app, request), post);
      },
    );
  }

  app.post(
    '/statuses/:id/reblog',
    {
      preHandler: auth.member('write:statuses'),
      schema: schemaOf("Repost: answers the reblog, the reposter's status wrapping the post"),
    },
    async (request) => {
      const postId = postIdOf(request.params.id);
      const post = await changed(app, request, repost, true, postId);
      const renderer = statusRenderer(app, request);
      const made = await renderer.repost({ postId, userId: viewerOf(request).id });
      const reblog = made && (await renderer.reblog(post, made));
      if (!reblog) throw notFound(MastodonMessages.notFound);
      return reblog;
    },
  );
};
