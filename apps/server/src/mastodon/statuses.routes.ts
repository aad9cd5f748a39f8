import {
  IDEMPOTENCY_HEADER,
  idempotencyHeadersSchema,
  mastodon,
  postBodySchema,
  postEditBodySchema,
  type Post,
} from '@perch/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound, unprocessable } from '../lib/errors';
import { viewerOf } from '../lib/viewer';
import { repost as repostInteraction } from '../modules/interactions';
import { MastodonMessages, type MastodonAuth } from './auth';
import { statusRenderer, type StatusRenderer } from './hydrate';
import { mediaRefOf, postIdOf, statusRefOf } from './statuses-ids';
import { formBoolean, formList } from './form';
import { commentOf, openPost, orNotFound, postStatus, statusById } from './statuses-read';

const idParams = z.object({ id: z.string().min(1).max(64) });

/** POST /api/v1/statuses's parameters (visibility, language and scheduling are not Perch's). */
const statusBodySchema = z.object({
  status: z.string().optional(),
  // An uploaded attachment's id may carry its description (see statuses-ids.ts).
  media_ids: formList(z.string().max(8000)).optional(),
  poll: z
    .object({
      options: formList(z.string()),
      expires_in: z.coerce.number().int(),
      multiple: formBoolean.optional(),
    })
    .optional(),
  in_reply_to_id: z.string().max(64).nullish(),
  quoted_status_id: z.string().max(64).nullish(),
  sensitive: formBoolean.optional(),
  spoiler_text: z.string().optional(),
  visibility: z.string().optional(),
  language: z.string().nullish(),
});
type StatusBody = z.infer<typeof statusBodySchema>;

const editBodySchema = statusBodySchema.pick({
  status: true,
  media_ids: true,
  sensitive: true,
  spoiler_text: true,
});

/** Perch's own rules decide what a post may be: a refusal answers 422 with their words. */
function checked<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw unprocessable(
      `Validation failed: ${result.error.issues.map((i) => i.message).join('; ')}`,
    );
  }
  return result.data;
}

const mediaOf = (body: Pick<StatusBody, 'media_ids'>) =>
  body.media_ids?.map((id) => {
    const { url, description } = mediaRefOf(id);
    return { url, alt: description };
  });

function postDataOf(body: StatusBody) {
  return {
    content: body.status ?? '',
    contentWarning: body.spoiler_text ?? null,
    ...(body.sensitive !== undefined && { sensitive: body.sensitive }),
    ...(body.media_ids !== undefined && { media: mediaOf(body) }),
    ...(body.quoted_status_id && { quoteId: postIdOf(body.quoted_status_id) }),
    ...(body.poll && {
      poll: {
        options: body.poll.options,
        expiresIn: body.poll.expires_in,
        multiple: body.poll.multiple ?? false,
      },
    }),
  };
}

/** A reply is a comment on the post it replies to (on a comment: on that comment's post). */
async function reply(
  app: FastifyInstance,
  request: FastifyRequest,
  body: StatusBody,
  key?: string,
) {
  const ref = statusRefOf(body.in_reply_to_id ?? '');
  const postId = ref.kind === 'post' ? ref.id : ref.postId;
  const text = body.status ?? '';
  if (text.trim() === '') throw unprocessable("Validation failed: Text can't be blank");
  const { comment, post } = await orNotFound(
    app.services.comments.add(viewerOf(request), postId, text, key),
  );
  const renderer = statusRenderer(app, request);
  const [status] = await renderer.comments(post, [comment]);
  return status;
}

/** The one status a rendering made; 404 when its author is not shown. */
function sole(status: mastodon.Status | undefined): mastodon.Status {
  if (!status) throw notFound(MastodonMessages.notFound);
  return status;
}

/** A status as it was before being deleted, with its text as written (for "delete and redraft"). */
async function deletedStatus(renderer: StatusRenderer, post: Post) {
  return { ...(await postStatus(renderer, post)), text: post.content };
}

/** Writing, reading, editing and deleting statuses. */
const statusWriteRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (app, { auth }) => {
  const { posts, comments, interactions } = app.services;
  const one = { params: idParams, response: { 200: mastodon.statusSchema } };

  app.post(
    '/statuses',
    {
      preHandler: auth.member('write:statuses'),
      schema: {
        summary: 'Publish a status (a reply is a comment on its post)',
        body: statusBodySchema,
        headers: idempotencyHeadersSchema,
        response: { 200: mastodon.statusSchema },
      },
    },
    async (request) => {
      const key = request.headers[IDEMPOTENCY_HEADER];
      const { body } = request;
      if (body.in_reply_to_id) {
        const status = await reply(app, request, body, key);
        if (status) return status;
      }
      const { postData } = checked(postBodySchema, { postData: postDataOf(body) });
      const post = await orNotFound(posts.create(viewerOf(request), postData, key));
      return postStatus(statusRenderer(app, request), post);
    },
  );

  app.get(
    '/statuses/:id',
    { preHandler: auth.open('read:statuses'), schema: { ...one, summary: 'One status' } },
    async (request) => statusById(app, statusRenderer(app, request), request.params.id),
  );

  app.delete(
    '/statuses/:id',
    {
      preHandler: auth.member('write:statuses'),
      schema: { ...one, summary: 'Delete a status; answers it with its text as written' },
    },
    async (request) => {
      const renderer = statusRenderer(app, request);
      const viewer = viewerOf(request);
      const ref = statusRefOf(request.params.id);
      if (ref.kind === 'comment') {
        const post = await openPost(app, renderer, ref.postId);
        const comment = await commentOf(app, renderer, ref.postId, ref.commentId);
        const [status] = await renderer.comments(post, [comment]);
        await comments.remove(viewer, ref.postId, ref.commentId);
        return { ...sole(status), text: comment.text };
      }
      // A reblog's id: deleting it undoes the repost, as in Mastodon.
      const repost = await renderer.repost({ id: ref.id });
      if (repost?.userId === viewer.id) {
        const reposted = await openPost(app, renderer, repost.postId);
        const reblog = sole((await renderer.reblog(reposted, repost)) ?? undefined);
        await orNotFound(interactions.remove(repostInteraction, viewer, repost.postId));
        return reblog;
      }
      const post = await openPost(app, renderer, ref.id);
      const status = await deletedStatus(renderer, post);
      await posts.remove(viewer, ref.id);
      return status;
    },
  );

  app.put(
    '/statuses/:id',
    {
      preHandler: auth.member('write:statuses'),
      schema: { ...one, body: editBodySchema, summary: 'Edit a status (its poll stays as it was)' },
    },
    async (request) => {
      const renderer = statusRenderer(app, request);
      const viewer = viewerOf(request);
      const { body } = request;
      const ref = statusRefOf(request.params.id);
      if (ref.kind === 'comment') {
        const text = body.status ?? '';
        if (text.trim() === '') throw unprocessable("Validation failed: Text can't be blank");
        const edited = await orNotFound(comments.edit(viewer, ref.postId, ref.commentId, text));
        const [status] = await renderer.comments(edited.post, [edited.comment]);
        return sole(status);
      }
      const { postData } = checked(postEditBodySchema, {
        postData: {
          content: body.status ?? '',
          contentWarning: body.spoiler_text ?? null,
          ...(body.sensitive !== undefined && { sensitive: body.sensitive }),
          media: mediaOf(body) ?? [],
        },
      });
      const post = await orNotFound(posts.edit(viewer, ref.id, postData));
      return postStatus(renderer, post);
    },
  );
};

/** A status's source, versions and thread. */
const statusReadRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (app, { auth }) => {
  app.get(
    '/statuses/:id/source',
    {
      preHandler: auth.member('read:statuses'),
      schema: {
        params: idParams,
        response: { 200: mastodon.statusSourceSchema },
        summary: "A status's text as written, for editing",
      },
    },
    async (request) => {
      const renderer = statusRenderer(app, request);
      const { id } = request.params;
      const ref = statusRefOf(id);
      if (ref.kind === 'comment') {
        const comment = await commentOf(app, renderer, ref.postId, ref.commentId);
        return { id, text: comment.text, spoiler_text: '' };
      }
      const post = await openPost(app, renderer, ref.id);
      return { id, text: post.content, spoiler_text: post.contentWarning ?? '' };
    },
  );

  app.get(
    '/statuses/:id/history',
    {
      preHandler: auth.open('read:statuses'),
      schema: {
        params: idParams,
        response: { 200: z.array(mastodon.statusEditSchema) },
        summary: "A status's versions: Perch keeps the current one only",
      },
    },
    async (request) => {
      const status = await statusById(app, statusRenderer(app, request), request.params.id);
      return [
        {
          content: status.content,
          spoiler_text: status.spoiler_text,
          sensitive: status.sensitive,
          created_at: status.edited_at ?? status.created_at,
          account: status.account,
          media_attachments: status.media_attachments,
          emojis: [],
          ...(status.poll && {
            poll: { options: status.poll.options.map(({ title }) => ({ title })) },
          }),
        },
      ];
    },
  );

  app.get(
    '/statuses/:id/context',
    {
      preHandler: auth.open('read:statuses'),
      schema: {
        params: idParams,
        response: { 200: mastodon.contextSchema },
        summary: "A status's thread: a post's comments below it, a comment's post above it",
      },
    },
    async (request) => {
      const renderer = statusRenderer(app, request);
      const ref = statusRefOf(request.params.id);
      const postId = ref.kind === 'post' ? ref.id : ref.postId;
      const post = await openPost(app, renderer, postId);
      if (ref.kind === 'comment') {
        return { ancestors: [await postStatus(renderer, post)], descendants: [] };
      }
      return { ancestors: [], descendants: await threadOf(app, renderer, post) };
    },
  );
};

/** How many comments a thread shows at most (Perch's comments do not nest). */
const THREAD_MAX = 200;

async function threadOf(app: FastifyInstance, renderer: StatusRenderer, post: Post) {
  const all = [];
  let cursor: string | undefined;
  do {
    const page = await orNotFound(
      app.services.comments.list(post._id, renderer.viewer, { limit: 50, cursor }),
    );
    all.push(...page.comments);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined && all.length < THREAD_MAX);
  return renderer.comments(post, all.slice(0, THREAD_MAX));
}

/** Statuses (docs.joinmastodon.org/methods/statuses), as JSON or form bodies. */
export const statusesRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (app, opts) => {
  await app.register(statusWriteRoutes, opts);
  await app.register(statusReadRoutes, opts);
};
