import {
  loginBodySchema,
  loginResponseSchema,
  noContentSchema,
  signupBodySchema,
  signupResponseSchema,
  userResponseSchema,
} from '@perch/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  clearSessionCookie,
  extractToken,
  sessionTokenOf,
  setSessionCookie,
} from '../../lib/session-cookie';
import { viewerOf } from '../../lib/viewer';
import { readerOf } from '../../lib/prefer';

const signInContext = (request: FastifyRequest) => ({
  userAgent: request.headers['user-agent'] ?? '',
});

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth, embeds } = app.services;
  // Guessing passwords or mass-creating accounts should be slow.
  const perMinute = app.config.authRateLimitPerMinute;
  const rateLimit = perMinute > 0 ? { max: perMinute, timeWindow: '1 minute' } : false;

  app.post(
    '/signup',
    {
      schema: {
        body: signupBodySchema,
        response: { 201: signupResponseSchema },
        summary: 'Create an account and sign in',
      },
      config: { rateLimit },
    },
    async (request, reply) => {
      const { encodedToken, createdUser } = await auth.signup(request.body, signInContext(request));
      setSessionCookie(reply, encodedToken);
      return reply
        .status(201)
        .send({ encodedToken, createdUser: await embeds.own(createdUser, readerOf(request)) });
    },
  );
  app.post(
    '/login',
    {
      schema: {
        body: loginBodySchema,
        response: { 200: loginResponseSchema },
        summary: 'Sign in',
      },
      config: { rateLimit },
    },
    async (request, reply) => {
      const { encodedToken, foundUser } = await auth.login(request.body, signInContext(request));
      setSessionCookie(reply, encodedToken);
      return { encodedToken, foundUser: await embeds.own(foundUser, readerOf(request)) };
    },
  );
  const me = { response: { 200: userResponseSchema }, summary: "The member's own record" };
  const done = (summary: string) => ({ response: { 204: noContentSchema }, summary });
  app.get('/me', { preHandler: app.authenticate, schema: me }, async (request) => {
    const { user } = await auth.currentUser(viewerOf(request));
    return { user: await embeds.own(user, readerOf(request)) };
  });
  /** Sets the session cookie again: it ends with the browser session, the token does not. */
  const session = done('Set the session cookie for the token in the header');
  app.post(
    '/session',
    { preHandler: app.authenticate, schema: session },
    async (request, reply) => {
      setSessionCookie(reply, extractToken(request) ?? '');
      return reply.status(204).send();
    },
  );
  /** Ends the session of the token in the header, or else of the cookie, and clears the cookie. */
  app.post('/logout', { schema: done('Sign out this session') }, async (request, reply) => {
    const token = sessionTokenOf(request);
    const viewer = token ? await app.verifyToken(token).catch(() => null) : null;
    if (viewer) await auth.logout(viewer);
    clearSessionCookie(reply);
    return reply.status(204).send();
  });
  /** Ends every other session of the member: every device but this one is signed out. */
  const others = done('Sign out every other device');
  app.post(
    '/logout-others',
    { preHandler: app.authenticate, schema: others },
    async (request, reply) => {
      await auth.logoutElsewhere(viewerOf(request));
      return reply.status(204).send();
    },
  );
  /** Ends every session of the member, on every device (this one included). */
  const all = done('Sign out every device, this one included');
  app.post('/logout-all', { preHandler: app.authenticate, schema: all }, async (request, reply) => {
    await auth.logoutEverywhere(viewerOf(request));
    clearSessionCookie(reply);
    return reply.status(204).send();
  });
};
