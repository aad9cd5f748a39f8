import { z } from 'zod';
import { accountSchema } from './account';
import { statusSchema } from './status';

/** The Notification types Perch sends (docs.joinmastodon.org/entities/Notification#type). */
export const NOTIFICATION_TYPES = [
  'mention',
  'status',
  'reblog',
  'follow',
  'favourite',
  'poll',
  'quote',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Mastodon's Notification: an account did something that concerns the member. */
export const notificationSchema = z.object({
  id: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  group_key: z.string(),
  created_at: z.string(),
  account: accountSchema,
  /** The status acted on; absent for follows. */
  status: statusSchema.optional(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** `GET /api/v1/notifications/unread_count`. */
export const notificationUnreadCountSchema = z.object({ count: z.number().int() });
