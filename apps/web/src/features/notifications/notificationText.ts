import type { NotificationActor, NotificationGroup } from '@perch/contract';
import { postPath, profilePath } from '../../shared/lib/paths';

export function actorName(actor: NotificationActor): string {
  return `${actor.firstName} ${actor.lastName}`.trim() || actor.username;
}

/** Who did it: 'Ada Okafor', 'Ada Okafor and Bo Li', 'Ada Okafor and 3 others'. */
export function actorsPhrase(group: Pick<NotificationGroup, 'actors' | 'actorCount'>): string {
  const [first, second] = group.actors;
  const firstName = first ? actorName(first) : 'Someone';
  const count = Math.max(group.actorCount, group.actors.length, 1);
  if (count === 1) return firstName;
  if (count === 2 && second) return `${firstName} and ${actorName(second)}`;
  const others = count - 1;
  return `${firstName} and ${String(others)} ${others === 1 ? 'other' : 'others'}`;
}

/** What they did, after their names: 'liked your post', 'followed you', … */
export function notificationVerb(kind: NotificationGroup['kind']): string {
  switch (kind) {
    case 'like':
      return 'liked your post';
    case 'comment':
      return 'commented on your post';
    case 'follow':
      return 'followed you';
    case 'mention':
      return 'mentioned you';
    case 'repost':
      return 'reposted your post';
    case 'poll':
      return 'ended a poll';
    case 'quote':
      return 'quoted your post';
  }
}

/** A poll's end, said to its author (the group's actor) or to a member who voted in it. */
export function pollEndedText(group: Pick<NotificationGroup, 'actors'>, viewerId: string | null) {
  return group.actors[0]?._id === viewerId
    ? 'Your poll has ended'
    : 'A poll you voted in has ended';
}

/** The whole sentence, e.g. 'Ada Okafor and Bo Li liked your post'. */
export function notificationText(group: NotificationGroup, viewerId: string | null = null): string {
  if (group.kind === 'poll') return pollEndedText(group, viewerId);
  const sentence = `${actorsPhrase(group)} ${notificationVerb(group.kind)}`;
  return group.kind === 'comment' && group.comment
    ? `${sentence}: ${group.comment.text}`
    : sentence;
}

/** Where an entry leads: the post it is about, or the profile of who followed. */
export function notificationPath(group: NotificationGroup): string | null {
  if (group.kind !== 'follow' && group.post) return postPath(group.post._id);
  const [actor] = group.actors;
  return actor ? profilePath(actor.username) : null;
}
