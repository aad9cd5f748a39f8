import multipart from '@fastify/multipart';
import {
  MEDIA_ALT_MAX,
  MEDIA_MAX_BYTES,
  MediaMessages,
  mastodon,
  postMediaItemInputSchema,
} from '@perch/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, notFound, unprocessable } from '../lib/errors';
import { viewerOf } from '../lib/viewer';
import { describeMultipartError, ENVELOPE_BYTES } from '../modules/media/media.routes';
import type { OwnUpload } from '../modules/media/media.service';
import { uploadRateLimit } from './accounts-credentials';
import { MastodonMessages, type MastodonAuth } from './auth';
import { linksOf } from './context';
import { absolute, type Links } from './entities/links';
import { mediaRefOf, uploadedMediaId, type Focus } from './statuses-ids';

const idParams = z.object({ id: z.string().min(1).max(8000) });

/** Perch's rule for an image's description (alt text). */
const description = postMediaItemInputSchema.shape.alt.unwrap().unwrap();

/** Mastodon's `focus`, "x,y" with each from -1 to 1. */
const focus = z
  .string()
  .regex(/^\s*-?\d+(\.\d+)?\s*,\s*-?\d+(\.\d+)?\s*$/, 'Focus must be "x,y".')
  .transform((text) => {
    const [x = 0, y = 0] = text.split(',').map(Number);
    return { x, y };
  })
  .refine(({ x, y }) => Math.abs(x) <= 1 && Math.abs(y) <= 1, 'Focus is from -1 to 1.');

const detailsSchema = z.object({
  description: description.optional(),
  focus: focus.optional(),
});

/** A description with spaces around it dropped; none when nothing is left. */
const textOrNull = (text: string | undefined): string | null => {
  const trimmed = text?.trim();
  return trimmed === undefined || trimmed === '' ? null : trimmed;
};

function detailsOf(fields: unknown): { description: string | null; focus: Focus | null } {
  const parsed = detailsSchema.safeParse(fields);
  if (!parsed.success) {
    throw unprocessable(
      `Validation failed: ${parsed.error.issues.map((i) => i.message).join('; ')}`,
    );
  }
  return { description: textOrNull(parsed.data.description), focus: parsed.data.focus ?? null };
}

/** An upload as Mastodon's MediaAttachment (Perch's are images). */
function toAttachment(
  upload: OwnUpload,
  details: { description: string | null; focus: Focus | null },
  links: Links,
): mastodon.MediaAttachment {
  const { width, height } = upload;
  const size = (w: number, h: number) => ({
    width: w,
    height: h,
    size: `${w}x${h}`,
    aspect: w / h,
  });
  return {
    id: uploadedMediaId(upload.url, details.description, details.focus),
    type: 'image',
    url: absolute(links, upload.url),
    preview_url: absolute(links, upload.thumbnailURL),
    remote_url: null,
    meta: {
      ...(height > 0 && { original: size(width, height) }),
      ...(details.focus && { focus: details.focus }),
    },
    description: details.description,
    blurhash: upload.blurhash,
  };
}

/** The file and fields of a multipart upload. */
async function readForm(request: FastifyRequest) {
  if (!request.isMultipart()) throw unprocessable(MediaMessages.notMultipart);
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > MEDIA_MAX_BYTES + 2 * ENVELOPE_BYTES) {
    throw describeMultipartError({ code: 'FST_REQ_FILE_TOO_LARGE' });
  }
  let data: Buffer | undefined;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw badRequest(MediaMessages.missingFile);
        data = await part.toBuffer();
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    throw describeMultipartError(error);
  }
  if (!data || data.length === 0) throw unprocessable(MediaMessages.missingFile);
  return { data, fields };
}

/** The viewer's own upload an attachment id names; 404 for anyone else's or none. */
async function ownUpload(app: FastifyInstance, request: FastifyRequest, id: string) {
  const ref = mediaRefOf(id);
  const upload = await app.services.media.uploadOf(viewerOf(request).id, ref.url);
  if (!upload) throw notFound(MastodonMessages.notFound);
  return { ref, upload };
}

/** POST /api/v{1,2}/media: an image through Perch's upload, with its allowance per member. */
const uploadRoute: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (app, { auth }) => {
  await app.register(multipart, {
    limits: {
      fileSize: MEDIA_MAX_BYTES,
      files: 1,
      fields: 4,
      fieldSize: 4 * MEDIA_ALT_MAX + 64,
      parts: 6,
      headerPairs: 20,
    },
    throwFileSizeLimit: true,
  });
  app.post(
    '/media',
    {
      preHandler: auth.member('write:media'),
      config: { rateLimit: uploadRateLimit(app) },
      schema: {
        response: { 200: mastodon.mediaAttachmentSchema },
        summary: 'Upload an image (multipart `file`, `description`, `focus`)',
      },
    },
    async (request) => {
      const viewer = viewerOf(request);
      const { data, fields } = await readForm(request);
      const details = detailsOf(fields);
      const media = await app.services.media.upload({ ownerId: viewer.id, data, purpose: 'post' });
      return toAttachment({ ...media }, details, linksOf(app, request));
    },
  );
};

/** Media (docs.joinmastodon.org/methods/media): uploads, read and described by their owner. */
export const mediaRoutes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (app, { auth }) => {
  await app.register(uploadRoute, { auth });
  const one = { params: idParams, response: { 200: mastodon.mediaAttachmentSchema } };

  app.get(
    '/media/:id',
    { preHandler: auth.member('write:media'), schema: { ...one, summary: 'An upload of yours' } },
    async (request) => {
      const { ref, upload } = await ownUpload(app, request, request.params.id);
      return toAttachment(upload, ref, linksOf(app, request));
    },
  );

  app.put(
    '/media/:id',
    {
      preHandler: auth.member('write:media'),
      schema: {
        ...one,
        body: detailsSchema.partial().optional(),
        summary: "Change an upload's description and focus: its new id carries them",
      },
    },
    async (request) => {
      const { ref, upload } = await ownUpload(app, request, request.params.id);
      const body = request.body ?? {};
      const details = {
        description:
          body.description === undefined ? ref.description : textOrNull(body.description),
        focus: body.focus ?? ref.focus,
      };
      return toAttachment(upload, details, linksOf(app, request));
    },
  );
};

/** POST /api/v2/media: Perch processes an image as it is uploaded, so v1's answer fits v2. */
export const mediaV2Routes: FastifyPluginAsyncZod<{ auth: MastodonAuth }> = async (app, opts) => {
  await app.register(uploadRoute, opts);
};
