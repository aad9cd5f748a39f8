import type { NotificationGroup, NotificationKind } from '@perch/contract';
import { toIso } from '../../lib/time';
import type { ActorRow, GroupRow } from '../../modules/notifications/notifications.repository';
import { toUserStub } from '../../modules/users/users.mapper';

// A notification shows the start of the post; the post's view has the rest.
const EXCERPT_MAX = 280;

function excerpt(text: string): string {
  const characters = Array.from(text);
  return characters.length <= EXCERPT_MAX
    ? text
    : `${characters.slice(0, EXCERPT_MAX).join('').trimEnd()}…`;
}

function viewOf(group: GroupRow, actors: readonly ActorRow[]): NotificationGroup {
  const own = actors.filter(
    (actor) => actor.group_key === group.group_key && actor.unread === group.unread,
  );
  const unread = group.unread === 1;
  const id = `${group.group_key}:${unread ? 'unread' : 'read'}`;
  return {
    _id: id,
    id,
    kind: group.kind as NotificationKind,
    actors: own.map(toUserStub),
    actorCount: group.actor_count,
    post:
      group.post_id && group.post_content !== null
        ? {
            _id: group.post_id,
            id: group.post_id,
            content: excerpt(group.post_content),
            mediaURL: group.post_media_url,
          }
        : null,
    comment:
      group.comment_id && group.comment_text !== null
        ? { _id: group.comment_id, id: group.comment_id, text: excerpt(group.comment_text) }
        : null,
    latestAt: toIso(group.latest_at),
    read: !unread,
  };
}

/**
 * Notification groups as the API shows them, each with its actors (member summaries) and the
 * start of its post or comment. Nothing of them is cached: a page is read in two queries.
 */
export const notificationPresenter = {
  /** The groups' views, in their order, each with those of `actors` in it. */
  packMany: (groups: readonly GroupRow[], actors: readonly ActorRow[]): NotificationGroup[] =>
    groups.map((group) => viewOf(group, actors)),
};
