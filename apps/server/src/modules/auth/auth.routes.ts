import { loginBodySchema, signupBodySchema } from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { viewerOf } from '../../plugins/auth';
import { createAuthService } from './auth.service';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const auth = createAuthService({
    db: app.db,
    passwordHashCost: app.config.passwordHashCost,
    signToken: app.signToken,
  });
  // Guessing passwords or mass-creating accounts should be slow.
  const perMinute = app.config.authRateLimitPerMinute;
  const rateLimit = perMinute > 0 ? { max: perMinute, timeWindow: '1 minute' } : false;

  app.post(
    '/signup',
    { schema: { body: signupBodySchema }, config: { rateLimit } },
    async (request, reply) => reply.status(201).send(await auth.signup(request.body)),
  );
  app.post('/login', { schema: { body: loginBodySchema }, config: { rateLimit } }, (request) =>
    auth.login(request.body),
  );
  app.get('/me', { preHandler: app.authenticate }, (request) =>
    auth.currentUser(viewerOf(request)),
  );
};
