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

/** v2's NotificationGroup: one of Perch's groups (docs.joinmastodon.org/methods/grouped_notifications). */
export const notificationGroupSchema = z.object({
  group_key: z.string(),
  notifications_count: z.number().int(),
  type: z.enum(NOTIFICATION_TYPES),
  most_recent_notification_id: z.string(),
  page_min_id: z.string().optional(),
  page_max_id: z.string().optional(),
  latest_page_notification_at: z.string().optional(),
  sample_account_ids: z.array(z.string()),
  status_id: z.string().optional(),
});
export type NotificationGroup = z.infer<typeof notificationGroupSchema>;

export const groupedNotificationsResultsSchema = z.object({
  accounts: z.array(accountSchema),
  statuses: z.array(statusSchema),
  notification_groups: z.array(notificationGroupSchema),
});
export type GroupedNotificationsResults = z.infer<typeof groupedNotificationsResultsSchema>;
