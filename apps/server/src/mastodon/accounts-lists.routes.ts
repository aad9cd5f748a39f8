import { mastodon } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { viewerOf } from '../lib/viewer';
import { ACCOUNT_PAGE, accountsOf, arrayParam, relationshipsOf, setNextLink } from './accounts';
import type { MastodonAuth } from './auth';
import { linksOf } from './context';
import { limitOf, pageParamsSchema } from './pagination';

const idParams = z.object({ id: z.string().min(1).max(64) });
const accountsSchema = z.array(mastodon.accountSchema);

const searchQuery = z.object({
  q: z.string().max(200),
  limit: z.coerce.number().int().min(1).catch(ACCOUNT_PAGE.fallback).optional(),
  offset: z.coerce.number().int().min(0).max(1000).catch(0).optional(),
  following: z.stringbool().catch(false).optional(),
  resolve: z.string().optional(),
});

/** Accounts methods that answer lists: search, relationships, followers and following. */
export const accountListsRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (
  app,
  { auth },
) => {
  const { users } = app.services;
  app.get(
    '/accounts/search',
    {
      preHandler: auth.member('read:accounts'),
      schema: {
        summary: 'Members whose username or name holds q',
        querystring: searchQuery,
        response: { 200: accountsSchema },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const { q, offset = 0, following = false } = request.query;
      const limit = Math.min(request.query.limit ?? ACCOUNT_PAGE.fallback, ACCOUNT_PAGE.max);
      const text = q.replace(/^@/, '').split('@')[0] ?? '';
      const found = [];
      let cursor: string | undefined;
      // Perch's search pages forward in username order; an offset is counted along them.
      while (found.length < offset + limit) {
        const page = await users.search(viewer, { q: text, limit: 50, cursor });
        found.push(...page.users);
        if (page.nextCursor === null) break;
        cursor = page.nextCursor;
      }
      let members = found.slice(offset, offset + limit);
      if (following) {
        const followed = await users.followeesAmong(
          viewer.id,
          members.map((user) => user._id),
        );
        members = members.filter((user) => followed.has(user._id));
      }
      return accountsOf(app, request, members);
    },
  );
  app.get(
    '/accounts/relationships',
    {
      preHandler: auth.member('read:follows'),
      schema: {
        summary: "The viewer's relationships to these members (id[])",
        querystring: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
        response: { 200: z.array(mastodon.relationshipSchema) },
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const ids = [...new Set(arrayParam(request.query, 'id'))].slice(0, ACCOUNT_PAGE.max);
      const relations = await users.relationsOf(viewer.id);
      const known = [];
      for (const id of ids) {
        // Unknown members, and those who blocked the viewer, are left out as Mastodon leaves out unknown ids.
        if (relations.blockedBy.has(id) || !(await users.stubById(id))) continue;
        known.push(id);
      }
      return relationshipsOf(app, viewer, known);
    },
  );
  for (const side of ['followers', 'following'] as const) {
    app.get(
      `/accounts/:id/${side}`,
      {
        preHandler: auth.open('read:accounts'),
        schema: {
          summary: side === 'followers' ? "A member's followers" : 'The members a member follows',
          params: idParams,
          querystring: pageParamsSchema,
          response: { 200: accountsSchema },
        },
      },
      async (request, reply) => {
        const limit = limitOf(request.query, ACCOUNT_PAGE.fallback, ACCOUNT_PAGE.max);
        const query = { limit, cursor: request.query.max_id };
        const page = await users[side](request.params.id, request.viewer, query);
        setNextLink(request, reply, linksOf(app, request).origin, page.nextCursor);
        return accountsOf(app, request, page.users);
      },
    );
  }
};
