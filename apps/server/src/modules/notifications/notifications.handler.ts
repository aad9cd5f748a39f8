import type { NotificationKind, PublishedEvent } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { DurableConsumer } from '../../platform/events/consumer';
import { newId } from '../../lib/ids';
import type { HiddenMembers } from '../safety/hidden-members';
import * as repo from './notifications.repository';
import { applyQuote } from './quote-notification';

type Db = Kysely<Database>;
type Safety = Pick<HiddenMembers, 'keepsFrom' | 'hiddenWithin'>;
/** Who voted in a poll (the polls module's). */
interface PollVoters {
  votersOf: (trx: Db, pollId: string) => Promise<string[]>;
}

/** Notifications with the same key show as one group: the likes of a post, all new followers. */
export function groupKeyOf(kind: NotificationKind, subjectId: string | null): string {
  if (kind === 'follow') return 'follow';
  return `${kind}:${subjectId ?? ''}`;
}

interface Change {
  /** Whom it concerns; null when nobody is to be told (one's own action, a subject gone). */
  recipientId: string | null;
}

/**
 * Turns one event into notification rows: made for likes, reposts, comments and follows of
 * others, taken back (while unread) when the like, repost or follow is undone. Deleting a post or comment removes its
 * notifications through the foreign keys. Answers whose notifications changed.
 */
async function apply(trx: Db, event: PublishedEvent, safety: Safety): Promise<Change> {
  const at = event.createdAt;
  switch (event.type) {
    case 'post.liked':
    case 'post.reposted': {
      const { postId, postAuthorId, userId } = event.payload;
      const kind = event.type === 'post.liked' ? 'like' : 'repost';
      // The member may have deleted their account since: their notification would name no one.
      if (
        postAuthorId === userId ||
        (await repo.postAuthorOf(trx, postId)) === null ||
        !(await repo.userExists(trx, userId)) ||
        (await safety.keepsFrom(trx, userId, postAuthorId))
      ) {
        return { recipientId: null };
      }
      await repo.insertNotification(trx, {
        id: newId(at),
        recipient_id: postAuthorId,
        kind,
        actor_id: userId,
        post_id: postId,
        comment_id: null,
        group_key: groupKeyOf(kind, postId),
        created_at: at,
      });
      return { recipientId: postAuthorId };
    }
    case 'post.unliked':
    case 'post.unreposted': {
      const { postId, postAuthorId, userId } = event.payload;
      const kind = event.type === 'post.unliked' ? 'like' : 'repost';
      const removed = await repo.deleteUnread(trx, {
        recipientId: postAuthorId,
        kind,
        actorId: userId,
        groupKey: groupKeyOf(kind, postId),
      });
      return { recipientId: removed ? postAuthorId : null };
    }
    case 'comment.added': {
      const { postId, commentId, postAuthorId, userId } = event.payload;
      if (
        postAuthorId === userId ||
        !(await repo.commentExists(trx, commentId)) ||
        (await safety.keepsFrom(trx, userId, postAuthorId))
      ) {
        return { recipientId: null };
      }
      await repo.insertNotification(trx, {
        id: newId(at),
        recipient_id: postAuthorId,
        kind: 'comment',
        actor_id: userId,
        post_id: postId,
        comment_id: commentId,
        group_key: groupKeyOf('comment', commentId),
        created_at: at,
      });
      return { recipientId: postAuthorId };
    }
    case 'member.followed': {
      const { followerId, followeeId } = event.payload;
      if (
        !(await repo.userExists(trx, followerId)) ||
        !(await repo.userExists(trx, followeeId)) ||
        (await safety.keepsFrom(trx, followerId, followeeId))
      ) {
        return { recipientId: null };
      }
      await repo.insertNotification(trx, {
        id: newId(at),
        recipient_id: followeeId,
        kind: 'follow',
        actor_id: followerId,
        post_id: null,
        comment_id: null,
        group_key: groupKeyOf('follow', null),
        created_at: at,
      });
      return { recipientId: followeeId };
    }
    case 'member.unfollowed': {
      const { followerId, followeeId } = event.payload;
      const removed = await repo.deleteUnread(trx, {
        recipientId: followeeId,
        kind: 'follow',
        actorId: followerId,
        groupKey: groupKeyOf('follow', null),
      });
      return { recipientId: removed ? followeeId : null };
    }
    // Their notifications went with the post or comment (foreign keys): tell the post's author.
    case 'post.deleted':
      return { recipientId: event.payload.authorId };
    case 'comment.deleted':
      return { recipientId: event.payload.postAuthorId };
    default:
      return { recipientId: null };
  }
}

type MentionEvent = Extract<PublishedEvent, { type: 'members.mentioned' }>;
type PollEndedEvent = Extract<PublishedEvent, { type: 'poll.ended' }>;

/**
 * Tells a poll's author and each of its voters that it ended, once (the closing job records the
 * event once): the poll's author is the notice's actor, so a voter who blocks or mutes them, or
 * is blocked by them, is not told. Answers who was told.
 */
async function applyPollEnded(
  trx: Db,
  event: PollEndedEvent,
  safety: Safety,
  polls: PollVoters,
): Promise<string[]> {
  const { pollId, postId, authorId } = event.payload;
  if ((await repo.postAuthorOf(trx, postId)) === null) return [];
  const groupKey = groupKeyOf('poll', postId);
  const told: string[] = [];
  for (const recipientId of [authorId, ...(await polls.votersOf(trx, pollId))]) {
    if (told.includes(recipientId)) continue;
    if (await safety.keepsFrom(trx, authorId, recipientId)) continue;
    await repo.insertNotification(trx, {
      id: newId(event.createdAt),
      recipient_id: recipientId,
      kind: 'poll',
      actor_id: authorId,
      post_id: postId,
      comment_id: null,
      group_key: groupKey,
      created_at: event.createdAt,
    });
    told.push(recipientId);
  }
  return told;
}

/**
 * Tells each member named in a post or comment, once per post or comment: not its author, not a
 * member already told of it (an edit naming them again), not if the text is gone meanwhile.
 * Answers who was told.
 */
async function applyMentions(trx: Db, event: MentionEvent, safety: Safety): Promise<string[]> {
  const { postId, commentId, authorId, userIds } = event.payload;
  const gone =
    (await repo.postAuthorOf(trx, postId)) === null ||
    (commentId !== null && !(await repo.commentExists(trx, commentId))) ||
    !(await repo.userExists(trx, authorId));
  if (gone) return [];
  const groupKey = groupKeyOf('mention', commentId ?? postId);
  const told: string[] = [];
  for (const recipientId of userIds) {
    if (recipientId === authorId || !(await repo.userExists(trx, recipientId))) continue;
    // Across a block, or from a member the recipient muted, a mention tells no one.
    if (await safety.keepsFrom(trx, authorId, recipientId)) continue;
    const where = { recipientId, kind: 'mention', actorId: authorId, groupKey };
    if (await repo.hasNotification(trx, where)) continue;
    await repo.insertNotification(trx, {
      id: newId(event.createdAt),
      recipient_id: recipientId,
      kind: 'mention',
      actor_id: authorId,
      post_id: postId,
      comment_id: commentId,
      group_key: groupKey,
      created_at: event.createdAt,
    });
    told.push(recipientId);
  }
  return told;
}

/** The members, posts and comments an event's notifications may point at. */
function rowsNamedBy(event: PublishedEvent): {
  users: string[];
  posts: string[];
  comments: string[];
} {
  switch (event.type) {
    case 'post.liked':
    case 'post.unliked':
    case 'post.reposted':
    case 'post.unreposted':
      return {
        users: [event.payload.postAuthorId, event.payload.userId],
        posts: [event.payload.postId],
        comments: [],
      };
    case 'comment.added':
      return {
        users: [event.payload.postAuthorId, event.payload.userId],
        posts: [event.payload.postId],
        comments: [event.payload.commentId],
      };
    case 'member.followed':
    case 'member.unfollowed':
      return {
        users: [event.payload.followerId, event.payload.followeeId],
        posts: [],
        comments: [],
      };
    case 'poll.ended':
      return { users: [event.payload.authorId], posts: [event.payload.postId], comments: [] };
    case 'members.mentioned': {
      const { authorId, userIds, postId, commentId } = event.payload;
      return {
        users: [authorId, ...userIds],
        posts: [postId],
        comments: commentId === null ? [] : [commentId],
      };
    }
    case 'post.created': {
      const { postId, authorId, quote } = event.payload;
      if (!quote) return { users: [], posts: [], comments: [] };
      return { users: [authorId, quote.authorId], posts: [postId, quote.postId], comments: [] };
    }
    default:
      return { users: [], posts: [], comments: [] };
  }
}

/**
 * Holds the rows the batch's notifications may point at before it changes anything, in the order
 * their deletions take them (an account's deletion its member's row before their comments and
 * posts, a post's deletion the post before its comments): a deletion then never waits for a
 * notification or count this batch holds while the batch waits for the deletion (see "Lock
 * order" in docs/architecture.md).
 */
async function holdRowsFirst(trx: Db, events: readonly PublishedEvent[]): Promise<void> {
  const users = new Set<string>();
  const posts = new Set<string>();
  const comments = new Set<string>();
  for (const event of events) {
    const named = rowsNamedBy(event);
    for (const id of named.users) users.add(id);
    for (const id of named.posts) posts.add(id);
    for (const id of named.comments) comments.add(id);
  }
  await repo.holdRows(trx, 'users', [...users]);
  await repo.holdRows(trx, 'posts', [...posts]);
  await repo.holdRows(trx, 'comments', [...comments]);
}

/**
 * Writes notifications from events, exactly once, and tells each recipient their unread count.
 * Nothing is made across a block or from a muted member (see modules/safety).
 */
export const createNotificationsConsumer = (
  safety: Safety,
  polls: PollVoters,
): DurableConsumer => ({
  name: 'notifications',
  types: new Set([
    'post.liked',
    'post.unliked',
    'post.reposted',
    'post.unreposted',
    'comment.added',
    'member.followed',
    'member.unfollowed',
    'post.deleted',
    'comment.deleted',
    'members.mentioned',
    'poll.ended',
    'post.created',
  ]),
  async handle(trx, events, recorder) {
    await holdRowsFirst(trx, events);
    const changed = new Set<string>();
    for (const event of events) {
      if (event.type === 'members.mentioned') {
        for (const recipientId of await applyMentions(trx, event, safety)) {
          changed.add(recipientId);
        }
        continue;
      }
      if (event.type === 'poll.ended') {
        for (const recipientId of await applyPollEnded(trx, event, safety, polls)) {
          changed.add(recipientId);
        }
        continue;
      }
      if (event.type === 'post.created') {
        const told = await applyQuote(trx, event, safety);
        if (told) changed.add(told);
        continue;
      }
      const { recipientId } = await apply(trx, event, safety);
      if (recipientId) changed.add(recipientId);
    }
    if (changed.size > 0) await repo.settleUnreadCounts(trx);
    for (const userId of changed) {
      if (!(await repo.userExists(trx, userId))) continue;
      recorder.record({
        type: 'notifications.changed',
        payload: {
          userId,
          unreadCount: await repo.countUnread(trx, userId, await safety.hiddenWithin(trx, userId)),
        },
      });
    }
  },
});
