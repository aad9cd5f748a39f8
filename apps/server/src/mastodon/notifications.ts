import type { mastodon, NotificationGroup, NotificationKind } from '@perch/contract';
import type { FastifyInstance } from 'fastify';
import { encodeCursor } from '../lib/cursor';
import { notFound } from '../lib/errors';
import type { Viewer } from '../lib/viewer';
import { MastodonMessages } from './auth';
import { toAccount } from './entities/account';
import type { StatusRenderer } from './hydrate';
import { commentOf } from './statuses-read';

/** The Mastodon type each of Perch's notification kinds is sent as. */
const TYPE_OF: Record<NotificationKind, mastodon.NotificationType> = {
  like: 'favourite',
  repost: 'reblog',
  follow: 'follow',
  comment: 'mention',
  mention: 'mention',
  quote: 'quote',
  poll: 'poll',
};

/** The keyset Perch pages notification groups by: newest time, group key, unread (1) or not. */
type Keyset = readonly [number, string, number];

function keysetOf(group: NotificationGroup): Keyset {
  const groupKey = group.id.slice(0, group.id.lastIndexOf(':'));
  return [Date.parse(group.latestAt), groupKey, group.read ? 0 : 1];
}

/**
 * A notification's id: its group's keyset, `<newest time (ms)>-<1 unread, 0 read>-<kind>` and
 * `-<subject id>` but for follows, e.g. `1796321228908-1-like-01M8…`. Ids of newer groups sort
 * after older ones; one stays the same until its group gains a member or is read.
 */
export function notificationIdOf(group: NotificationGroup): string {
  const [time, groupKey, unread] = keysetOf(group);
  return `${time}-${unread}-${groupKey.replace(':', '-')}`;
}

const NOTIFICATION_ID = /^(\d{1,15})-([01])-([a-z]{1,16})(?:-([0-9A-HJKMNP-TV-Z]{26}))?$/;

/** The keyset a notification id names; 404 `Record not found` when it is none of Perch's. */
export function keysetOfId(id: string): Keyset {
  const match = NOTIFICATION_ID.exec(id);
  if (!match) throw notFound(MastodonMessages.notFound);
  const [, time = '', unread = '', kind = '', subject] = match;
  return [Number(time), subject ? `${kind}:${subject}` : kind, Number(unread)];
}

/** The keyset a notification id names, or null when it is none of Perch's. */
export function keysetOrNull(id: string): Keyset | null {
  try {
    return keysetOfId(id);
  } catch {
    return null;
  }
}

/** The cursor below a notification id (Mastodon ignores an id it does not know: so does Perch). */
export function cursorBelow(id: string): string | undefined {
  const keyset = keysetOrNull(id);
  return keyset ? encodeCursor([...keyset]) : undefined;
}

/** The cursor whose page starts with the group a keyset names (the unread flag is compared last). */
export const cursorAt = ([time, key, unread]: Keyset): string =>
  encodeCursor([time, key, unread + 1]);

export const typeOf = (group: NotificationGroup): mastodon.NotificationType => TYPE_OF[group.kind];

/**
 * Notification groups as Mastodon notifications, one each, with the group's newest member as the
 * account; a group whose account or status the viewer can no longer see is left out.
 */
export async function toNotifications(
  app: FastifyInstance,
  renderer: StatusRenderer,
  viewer: Viewer,
  groups: readonly NotificationGroup[],
): Promise<mastodon.Notification[]> {
  const actorIds = new Set(groups.flatMap((group) => group.actors[0]?._id ?? []));
  const members = await app.services.users.byIds([...actorIds], viewer.id);
  const accounts = new Map(members.map((user) => [user._id, toAccount(user, renderer.links)]));
  const postIds = new Set(groups.flatMap((group) => group.post?._id ?? []));
  const posts = await app.services.posts.byIds([...postIds], viewer);
  const postsById = new Map(posts.map((post) => [post._id, post]));
  const statuses = new Map(
    (await renderer.statuses(posts)).map((status) => [status.id, status] as const),
  );

  async function statusOf(group: NotificationGroup): Promise<mastodon.Status | null> {
    const postId = group.post?._id;
    if (!postId) return null;
    const commentId = group.comment?._id;
    if (!commentId) return statuses.get(postId) ?? null;
    const post = postsById.get(postId);
    if (!post) return null;
    try {
      const comment = await commentOf(app, renderer, postId, commentId);
      const [status] = await renderer.comments(post, [comment]);
      return status ?? null;
    } catch {
      return null;
    }
  }

  const notifications: mastodon.Notification[] = [];
  for (const group of groups) {
    const account = accounts.get(group.actors[0]?._id ?? '');
    if (!account) continue;
    const base = {
      id: notificationIdOf(group),
      type: typeOf(group),
      group_key: group.id,
      created_at: group.latestAt,
      account,
    };
    if (group.kind === 'follow') {
      notifications.push(base);
      continue;
    }
    const status = await statusOf(group);
    if (status) notifications.push({ ...base, status });
  }
  return notifications;
}
