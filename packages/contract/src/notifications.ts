import { z } from 'zod';
import { nextCursorSchema, pageQuerySchema } from './pagination';
import { recordIdFields, userStubSchema } from './records';

export const NOTIFICATION_KINDS = [
  'like',
  'comment',
  'follow',
  'mention',
  'repost',
  'poll',
  'quote',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How many of a group's members are named; the rest are counted ("and 3 others"). */
export const NOTIFICATION_ACTORS_SHOWN = 3;

export const notificationActorSchema = userStubSchema;
export type NotificationActor = z.infer<typeof notificationActorSchema>;

/**
 * Notifications of one kind about one subject, grouped: the likes of one post, the new followers,
 * each comment on its own. Unread and read notifications form separate groups.
 */
export const notificationGroupSchema = z.object({
  /** Stable while the group's notifications stay as they are; for React keys. */
  ...recordIdFields,
  kind: z.enum(NOTIFICATION_KINDS),
  /** The newest members first, at most NOTIFICATION_ACTORS_SHOWN. */
  actors: z.array(notificationActorSchema),
  /** How many members in all. */
  actorCount: z.number().int(),
  /**
   * The post liked, reposted, commented on or mentioned in, the quote, or the post whose poll
   * ended (its actor is the poll's author: the viewer's own poll, or one they voted in); null for
   * follows.
   */
  post: z
    .object({ ...recordIdFields, content: z.string(), mediaURL: z.string().nullable() })
    .nullable(),
  /** The comment, for comment notifications. */
  comment: z.object({ ...recordIdFields, text: z.string() }).nullable(),
  /** When the newest notification of the group arrived. */
  latestAt: z.string(),
  read: z.boolean(),
});
export type NotificationGroup = z.infer<typeof notificationGroupSchema>;

export const notificationPageSchema = z.object({
  notifications: z.array(notificationGroupSchema),
  nextCursor: nextCursorSchema,
  unreadCount: z.number().int(),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

export const notificationQuerySchema = pageQuerySchema;

export const unreadCountSchema = z.object({ unreadCount: z.number().int() });
export type UnreadCount = z.infer<typeof unreadCountSchema>;
