import multipart from '@fastify/multipart';
import {
  MEDIA_MAX_BYTES,
  MediaMessages,
  userEditBodySchema,
  type User,
  type UserEditBody,
} from '@perch/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, badRequest, unprocessable } from '../lib/errors';
import type { Viewer } from '../lib/viewer';

/** What update_credentials was sent: its text fields, and the avatar and header images. */
export interface CredentialsForm {
  fields: Record<string, unknown>;
  avatar?: Buffer;
  header?: Buffer;
}

/** Room for the text fields and the multipart framing around two of the largest images. */
export const CREDENTIALS_BODY_LIMIT = 2 * MEDIA_MAX_BYTES + 1024 * 1024;

/**
 * update_credentials stores images as Perch's upload does: the same allowance per member and
 * minute (UPLOAD_RATE_LIMIT), counted after authentication so each member has their own.
 */
export function uploadRateLimit(app: FastifyInstance) {
  const max = app.config.uploadRateLimitPerMinute;
  if (max <= 0) return false;
  return {
    max,
    timeWindow: '1 minute',
    hook: 'preHandler' as const,
    keyGenerator: (request: FastifyRequest) =>
      request.viewer ? `member:${request.viewer.id}` : request.ip,
  };
}

/** Multipart bodies (images and fields) for update_credentials, in the plugin that registers it. */
export async function acceptCredentialForms(app: FastifyInstance): Promise<void> {
  // Either may be taken already by the API around these routes; it then serves them too.
  if (!app.hasContentTypeParser('multipart/form-data')) await registerMultipart(app);
  acceptUrlEncoded(app);
}

/** Some apps send Mastodon's forms url-encoded rather than as JSON: a flat record of the fields. */
export function acceptUrlEncoded(app: FastifyInstance): void {
  if (app.hasContentTypeParser('application/x-www-form-urlencoded')) return;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
}

async function registerMultipart(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: MEDIA_MAX_BYTES, files: 2, fields: 40, fieldSize: 16 * 1024, parts: 42 },
    throwFileSizeLimit: true,
  });
}

/** The form as sent: multipart (with images) or a parsed JSON or url-encoded body. */
export async function readCredentialsForm(request: FastifyRequest): Promise<CredentialsForm> {
  if (!request.isMultipart()) {
    const body = request.body;
    return { fields: body !== null && typeof body === 'object' ? { ...body } : {} };
  }
  const form: CredentialsForm = { fields: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'avatar') form.avatar = data;
        else if (part.fieldname === 'header') form.header = data;
      } else {
        form.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: unknown } | null)?.code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, MediaMessages.tooLarge);
    throw badRequest(MediaMessages.malformed);
  }
  return form;
}

/**
 * Mastodon's one display name as Perch's first and last names: split at the first space, the
 * first word the first name and the rest the last name ("Ana María López" is Ana / María López).
 * Perch asks for both, so a single word is refused as Perch's profile edit refuses an empty last
 * name.
 */
export function namesOf(displayName: string): { firstName: string; lastName: string } {
  const trimmed = displayName.trim();
  const space = trimmed.search(/\s/);
  if (space < 0) return { firstName: trimmed, lastName: '' };
  return { firstName: trimmed.slice(0, space), lastName: trimmed.slice(space).trim() };
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

/**
 * The profile edit Perch's own route would take for this form, checked by its schema (a refusal
 * answers 422 with Perch's words). Fields Perch does not keep (locked, bot, fields…) are ignored.
 */
export function profileChanges(current: User, form: CredentialsForm): UserEditBody['userData'] {
  const displayName = text(form.fields.display_name);
  const names =
    displayName === undefined
      ? { firstName: current.firstName, lastName: current.lastName }
      : namesOf(displayName);
  // Multipart forms carry line breaks as CRLF; Perch keeps a bio's as LF.
  const note = text(form.fields.note)?.replace(/\r\n?/g, '\n');
  const parsed = userEditBodySchema.safeParse({
    userData: { ...names, bio: note ?? current.bio },
  });
  if (!parsed.success) {
    throw unprocessable(
      `Validation failed: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`,
    );
  }
  return parsed.data.userData;
}

/** Stores an uploaded avatar through Perch's media pipeline; its URL for the profile edit. */
export async function uploadAvatar(
  app: FastifyInstance,
  viewer: Viewer,
  data: Buffer | undefined,
): Promise<string | undefined> {
  if (data === undefined || data.length === 0) return undefined;
  const media = await app.services.media.upload({ ownerId: viewer.id, data, purpose: 'avatar' });
  return media.url;
}
