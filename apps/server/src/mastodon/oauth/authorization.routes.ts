import {
  authorizationAnswerSchema,
  authorizationDecisionSchema,
  authorizationDescriptionSchema,
  authorizationRequestSchema,
} from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { viewerOf } from '../../lib/viewer';

/**
 * Perch's side of /oauth/authorize: the web app's page describes the request to the member and
 * sends their answer. Only Perch's own sessions reach it (an app cannot authorize itself).
 */
export const authorizationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { oauth } = app.services;
  app.get(
    '/authorization',
    {
      schema: {
        summary: 'What an app asks a member to allow; 400 for a request that must not be shown',
        querystring: authorizationRequestSchema,
        response: { 200: authorizationDescriptionSchema },
      },
    },
    (request) => oauth.describe(request.query),
  );
  app.post(
    '/authorization',
    {
      preHandler: app.authenticate,
      schema: {
        summary: "The member's answer: where to send the browser (or the code to show)",
        body: authorizationDecisionSchema,
        response: { 200: authorizationAnswerSchema },
      },
    },
    (request) => oauth.decide(viewerOf(request), request.body),
  );
};
