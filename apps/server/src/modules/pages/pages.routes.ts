import type { FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { publicOrigin } from '../../lib/public-url';
import { createPageShell, type PublicPageKind } from './html/document';
import type { Html } from './html/html';
import { problemPage } from './html/not-found';
import { postPage } from './html/post';
import { profilePage } from './html/profile';

/**
 * Pages are the same for every reader, so shared caches and crawlers may keep them: for a minute,
 * which bounds how long a member who turns their public profile off is still shown (an ETag would
 * still build the page to compare it, the database reads being most of its cost).
 */
const PAGE_CACHE = 'public, max-age=60';

const idParam = z.string().min(1).max(64);
const profileSchema = {
  params: z.object({ username: idParam }),
  querystring: z.object({ cursor: z.string().max(200).optional() }),
};
const postSchema = { params: z.object({ username: idParam, postId: idParam }) };

/**
 * Server-rendered pages for readers without an account or JavaScript: GET /@:username (a member's
 * profile and posts) and GET /@:username/:postId (a post and its first comments). Outside /api,
 * registered before the web app's fallback; HEAD answers as GET does.
 */
export const pagesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { pages } = app.services;
  const shell = createPageShell(app.config.webDir, (message) => {
    app.log.warn(message);
  });

  async function send(
    reply: FastifyReply,
    status: number,
    kind: PublicPageKind,
    page: { head: Html; content: Html },
  ) {
    const write = await shell();
    return reply
      .status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', status === 200 ? PAGE_CACHE : 'no-cache')
      .send(write(kind, page.head, page.content));
  }

  // What readers of a page are told is a page too; anything else goes to the app's error handler.
  app.setErrorHandler(async (error, _request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error))
      return send(reply, 400, 'not-found', problemPage(400));
    if (error instanceof AppError && (error.statusCode === 404 || error.statusCode === 400)) {
      return send(reply, error.statusCode, 'not-found', problemPage(error.statusCode));
    }
    throw error;
  });

  app.get('/@:username', { schema: profileSchema }, async (req, reply) => {
    const answer = await pages.profile(req.params.username, req.query.cursor ?? null);
    if ('movedTo' in answer)
      return reply.header('cache-control', PAGE_CACHE).redirect(answer.movedTo, 301);
    const origin = publicOrigin(app.config.publicUrl, req);
    return send(reply, 200, 'profile', profilePage(answer.view, origin));
  });

  app.get('/@:username/:postId', { schema: postSchema }, async (req, reply) => {
    const answer = await pages.post(req.params.username, req.params.postId);
    if ('movedTo' in answer)
      return reply.header('cache-control', PAGE_CACHE).redirect(answer.movedTo, 301);
    const origin = publicOrigin(app.config.publicUrl, req);
    return send(reply, 200, 'post', postPage(answer.view, origin));
  });
};
