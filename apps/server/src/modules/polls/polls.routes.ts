import { pollIdParamsSchema, pollResponseSchema, pollVoteBodySchema } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { viewerOf } from '../../lib/viewer';

/** A poll, and voting in it. */
export const pollsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { polls } = app.services;
  const byId = { params: pollIdParamsSchema };
  app.get(
    '/:pollId',
    {
      preHandler: app.identify,
      schema: { ...byId, response: { 200: pollResponseSchema }, summary: 'A poll' },
    },
    async (req) => ({ poll: await polls.open(req.params.pollId, req.viewer) }),
  );
  app.post(
    '/:pollId/votes',
    {
      preHandler: app.authenticate,
      schema: {
        ...byId,
        body: pollVoteBodySchema,
        response: { 200: pollResponseSchema },
        summary: "Vote in a poll, once: the options' positions, one unless it is multiple",
      },
    },
    async (req) => ({
      poll: await polls.vote(viewerOf(req), req.params.pollId, req.body.choices),
    }),
  );
};
