import { z } from 'zod';
import { recordIdFields } from './records';

/** One of the member's signed-in devices: a live session (not logged out, not expired). */
export const sessionSchema = z.object({
  ...recordIdFields,
  createdAt: z.string(),
  /** Updated at most once a minute. */
  lastUsedAt: z.string(),
  /** As the browser named itself at sign-in ('' when it did not). */
  userAgent: z.string(),
  /** The session this request was made with. */
  current: z.boolean(),
  /** The app the member authorized to act for them (through Mastodon's API); absent for Perch's. */
  appName: z.string().optional(),
});
export type Session = z.infer<typeof sessionSchema>;

/** The member's live sessions, most recently used first. */
export const sessionListSchema = z.object({ sessions: z.array(sessionSchema) });
export type SessionList = z.infer<typeof sessionListSchema>;

export const sessionParamsSchema = z.object({ sessionId: z.string().min(1).max(64) });

export const SESSION_NOT_FOUND = 'Session not found.';
