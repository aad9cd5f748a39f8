import { mastodon, PollMessages } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, unprocessable } from '../lib/errors';
import { viewerOf } from '../lib/viewer';
import type { MastodonAuth } from './auth';
import { toPoll } from './entities/status';
import { formList } from './form';

const idParams = z.object({ id: z.string().min(1).max(64) });

const voteBodySchema = z.object({ choices: formList(z.coerce.number().int().min(0)) });

/** Perch's refusals of a vote (ended, already voted, a bad choice) are Mastodon's 422s. */
const REFUSED: ReadonlySet<string> = new Set(Object.values(PollMessages));

async function refusalsAs422<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 400 && REFUSED.has(error.message)) {
      throw unprocessable(`Validation failed: ${error.message}`);
    }
    throw error;
  }
}

/** Polls (docs.joinmastodon.org/methods/polls): a poll's id is Perch's poll id. */
export const pollsRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (app, { auth }) => {
  const { polls } = app.services;
  const response = { 200: mastodon.pollSchema };

  app.get(
    '/polls/:id',
    {
      preHandler: auth.open('read:statuses'),
      schema: { params: idParams, response, summary: 'A poll' },
    },
    async (request) => {
      const viewer = request.viewer ?? null;
      return toPoll(await polls.open(request.params.id, viewer), viewer?.id ?? null);
    },
  );

  app.post(
    '/polls/:id/votes',
    {
      preHandler: auth.member('write:statuses'),
      schema: {
        params: idParams,
        body: voteBodySchema,
        response,
        summary: "Vote in a poll, once: the options' positions (`choices[]`)",
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const poll = await refusalsAs422(polls.vote(viewer, request.params.id, request.body.choices));
      return toPoll(poll, viewer.id);
    },
  );
};
