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

/** A group as Mastodon shows it: its members' accounts (newest first) and its status. */
export interface RenderedGroup {
  group: NotificationGroup;
  accounts: mastodon.Account[];
  /** Null for follows. */
  status: mastodon.Status | null;
}

/**
 * Notification groups with their members' accounts and their statuses, read together; a group
 * whose members or status the viewer can no longer see is left out.
 */
export async function renderGroups(
  app: FastifyInstance,
  renderer: StatusRenderer,
  viewer: Viewer,
  groups: readonly NotificationGroup[],
): Promise<RenderedGroup[]> {
  const actorIds = new Set(groups.flatMap((group) => group.actors.map((actor) => actor._id)));
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

  const rendered: RenderedGroup[] = [];
  for (const group of groups) {
    const members = group.actors.flatMap((actor) => accounts.get(actor._id) ?? []);
    if (members.length === 0) continue;
    const status = group.kind === 'follow' ? null : await statusOf(group);
    if (group.kind !== 'follow' && !status) continue;
    rendered.push({ group, accounts: members, status });
  }
  return rendered;
}

/**
 * Notification groups as Mastodon notifications, one each, with the group's newest member as the
 * account (see renderGroups).
 */
export async function toNotifications(
  app: FastifyInstance,
  renderer: StatusRenderer,
  viewer: Viewer,
  groups: readonly NotificationGroup[],
): Promise<mastodon.Notification[]> {
  const rendered = await renderGroups(app, renderer, viewer, groups);
  return rendered.flatMap(({ group, accounts, status }) => {
    const [account] = accounts;
    if (!account) return [];
    return {
      id: notificationIdOf(group),
      type: typeOf(group),
      group_key: group.id,
      created_at: group.latestAt,
      account,
      ...(status && { status }),
    };
  });
}

/** Groups as v2's GroupedNotificationsResults: each account and status once. */
export async function toGroupedResults(
  app: FastifyInstance,
  renderer: StatusRenderer,
  viewer: Viewer,
  groups: readonly NotificationGroup[],
): Promise<mastodon.GroupedNotificationsResults> {
  const rendered = await renderGroups(app, renderer, viewer, groups);
  const accounts = new Map<string, mastodon.Account>();
  const statuses = new Map<string, mastodon.Status>();
  const notificationGroups = rendered.map(({ group, accounts: members, status }) => {
    for (const account of members) accounts.set(account.id, account);
    if (status) statuses.set(status.id, status);
    const id = notificationIdOf(group);
    return {
      group_key: group.id,
      notifications_count: group.actorCount,
      type: typeOf(group),
      most_recent_notification_id: id,
      page_min_id: id,
      page_max_id: id,
      latest_page_notification_at: group.latestAt,
      sample_account_ids: members.map((account) => account.id),
      ...(status && { status_id: status.id }),
    };
  });
  return {
    accounts: [...accounts.values()],
    statuses: [...statuses.values()],
    notification_groups: notificationGroups,
  };
}
