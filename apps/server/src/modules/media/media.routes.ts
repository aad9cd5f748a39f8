import multipart from '@fastify/multipart';
import {
  MEDIA_MAX_BYTES,
  MediaMessages,
  mediaPurposeSchema,
  mediaUploadResponseSchema,
  type MediaPurpose,
} from '@perch/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, badRequest } from '../../lib/errors';
import { viewerOf } from '../../lib/viewer';

export const DEFAULT_UPLOADS_PER_MINUTE = 30;

export interface MediaRoutesOptions {
  /** Uploads a member may make per minute; 0 turns the limit off. Default 30. */
  uploadsPerMinute?: number;
}

// Room for the multipart framing and the purpose field around the largest image.
export const ENVELOPE_BYTES = 64 * 1024;

/** Multipart refusals in our words: what went wrong and how to send it right. */
export function describeMultipartError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError(413, MediaMessages.tooLarge);
  if (code === 'FST_FILES_LIMIT') return badRequest(MediaMessages.oneFile);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return badRequest(MediaMessages.tooManyFields);
  }
  // Whatever else stops the parser (a cut-off body, a bad boundary) is the request's fault.
  return badRequest(MediaMessages.malformed);
}

async function readUpload(
  request: FastifyRequest,
): Promise<{ data: Buffer; purpose: MediaPurpose }> {
  if (!request.isMultipart()) throw new AppError(415, MediaMessages.notMultipart);
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > MEDIA_MAX_BYTES + ENVELOPE_BYTES) {
    throw new AppError(413, MediaMessages.tooLarge);
  }

  let data: Buffer | undefined;
  let purpose: MediaPurpose = 'post';
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw badRequest(MediaMessages.missingFile);
        // Stops reading at the size limit and throws: an oversized body is never held whole.
        data = await part.toBuffer();
      } else if (part.fieldname === 'purpose') {
        const parsed = mediaPurposeSchema.safeParse(part.value);
        if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'purpose');
        purpose = parsed.data;
      }
    }
  } catch (error) {
    throw describeMultipartError(error);
  }
  if (!data || data.length === 0) throw badRequest(MediaMessages.missingFile);
  return { data, purpose };
}

/** POST /api/media: one image in, its stored URL out. */
export const mediaRoutes: FastifyPluginAsyncZod<MediaRoutesOptions> = async (app, options) => {
  await app.register(multipart, {
    limits: {
      fileSize: MEDIA_MAX_BYTES,
      files: 1,
      fields: 4,
      fieldSize: 1024,
      fieldNameSize: 100,
      parts: 6,
      headerPairs: 20,
    },
    throwFileSizeLimit: true,
  });

  const perMinute = options.uploadsPerMinute ?? DEFAULT_UPLOADS_PER_MINUTE;
  const rateLimit =
    perMinute > 0
      ? {
          max: perMinute,
          timeWindow: '1 minute',
          // After authentication, so that each member has an allowance of their own.
          hook: 'preHandler' as const,
          keyGenerator: (request: FastifyRequest) =>
            request.viewer ? `member:${request.viewer.id}` : request.ip,
        }
      : false;

  app.post(
    '/',
    {
      preHandler: app.authenticate,
      config: { rateLimit },
      schema: {
        response: { 201: mediaUploadResponseSchema },
        summary: 'Upload an image (multipart: `file`, and `purpose` post or avatar)',
      },
    },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const upload = await readUpload(request);
      const media = await app.services.media.upload({
        ownerId: viewer.id,
        data: upload.data,
        purpose: upload.purpose,
      });
      return reply.status(201).send(media);
    },
  );
};
