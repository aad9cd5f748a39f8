import { ErrorMessages, mastodon, type PageQuery, type UserPage } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Viewer } from '../lib/viewer';
import { viewerOf } from '../lib/viewer';
import { ACCOUNT_PAGE, accountsOf, isAlready, relationshipsOf, setNextLink } from './accounts';
import type { MastodonAuth } from './auth';
import { linksOf } from './context';
import { limitOf, pageParamsSchema } from './pagination';
import type { Scope } from './scopes';

const idParams = z.object({ id: z.string().min(1).max(64) });

/**
 * Follow, block and mute as Mastodon's apps call them: each answers the Relationship as it is
 * after the change, and doing it twice changes nothing (Perch's "already" refusals are the
 * answer's state, not errors). Blocking ends the follows between the two members, as in Perch.
 */
export const accountRelationsRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (
  app,
  { auth },
) => {
  const { users, safety } = app.services;

  const change = (
    path: string,
    scope: Scope,
    summary: string,
    act: (viewer: Viewer, id: string) => Promise<unknown>,
  ) =>
    app.post(
      `/accounts/:id/${path}`,
      {
        preHandler: auth.member(scope),
        schema: { summary, params: idParams, response: { 200: mastodon.relationshipSchema } },
      },
      async (request) => {
        const viewer = viewerOf(request);
        await act(viewer, request.params.id);
        const [relationship] = await relationshipsOf(app, viewer, [request.params.id]);
        return relationship;
      },
    );

  change('follow', 'write:follows', 'Follow a member', async (viewer, id) => {
    try {
      await users.follow(viewer, id);
    } catch (error) {
      if (!isAlready(error, ErrorMessages.alreadyFollowing)) throw error;
    }
  });
  change('unfollow', 'write:follows', 'Unfollow a member', async (viewer, id) => {
    try {
      await users.unfollow(viewer, id);
    } catch (error) {
      if (!isAlready(error, ErrorMessages.notFollowing)) throw error;
    }
  });
  change('block', 'write:blocks', 'Block a member', (viewer, id) => safety.block(viewer, id));
  change('unblock', 'write:blocks', 'Unblock a member', (viewer, id) => safety.unblock(viewer, id));
  change('mute', 'write:mutes', 'Mute a member', (viewer, id) => safety.mute(viewer, id));
  change('unmute', 'write:mutes', 'Unmute a member', (viewer, id) => safety.unmute(viewer, id));

  const list = (
    path: string,
    scope: Scope,
    summary: string,
    read: (viewer: Viewer, query: PageQuery) => Promise<UserPage>,
  ) =>
    app.get(
      path,
      {
        preHandler: auth.member(scope),
        schema: {
          summary,
          querystring: pageParamsSchema,
          response: { 200: z.array(mastodon.accountSchema) },
        },
      },
      async (request, reply) => {
        const limit = limitOf(request.query, ACCOUNT_PAGE.fallback, ACCOUNT_PAGE.max);
        const page = await read(viewerOf(request), { limit, cursor: request.query.max_id });
        setNextLink(request, reply, linksOf(app, request).origin, page.nextCursor);
        return accountsOf(app, request, page.users);
      },
    );

  list('/blocks', 'read:blocks', 'The members the member blocked, newest first', (viewer, query) =>
    safety.blocked(viewer, query),
  );
  list('/mutes', 'read:mutes', 'The members the member muted, newest first', (viewer, query) =>
    safety.muted(viewer, query),
  );
  list(
    '/follow_requests',
    'read:follows',
    'Follow requests (Perch has none: every follow is accepted at once)',
    () => Promise.resolve({ users: [], nextCursor: null }),
  );
};
