import { setTimeout as sleep } from 'node:timers/promises';
import { AccountErrors, type AccountDeleteBody } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Viewer } from '../../lib/viewer';
import { isLockConflict } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';
import type { EventRecorder } from '../../platform/events/transactions';
import { badRequest, unauthorized } from '../../lib/errors';
import type { AccountDeps } from './account.deps';
import * as repo from './account.repository';
import { memberWithPassword } from './password-check';

type Db = Kysely<Database>;

/**
 * Images named in a 'member.deleted' event, for the media consumer to free: about 90 KB of URLs,
 * well under what an event stream may leave unread (256 KB). A member who showed more has the
 * rest removed by the media sweep (their upload records went with them), within the hour.
 */
export const DELETED_MEMBER_IMAGES_MAX = 1000;

/** Tries of a deletion that found a lock taken (PostgreSQL) before the last one waits for locks. */
const DELETE_ATTEMPTS = 8;

/**
 * Removes the member and everything of theirs, keeping every counter on other members' rows
 * equal to the rows it counts; answers the sessions it ended.
 *
 * PostgreSQL: rows are locked before anything changes, in the order other writers take them:
 * posts first (every change under a post locks it first), then the member (which holds off
 * every write that would point at them), then the members they follow or who follow them, then
 * tags. Once it holds the member's row, the deletion would rather start over than wait for
 * another lock (`wait: false`: NOWAIT), so it never waits in a circle with the writers it holds
 * off; its last try waits, and PostgreSQL breaks a deadlock should one form.
 */
async function removeMember(
  {
    entities,
    notifications,
    sessions,
    polls,
  }: Pick<AccountDeps, 'entities' | 'notifications' | 'sessions' | 'polls'>,
  trx: Db,
  events: EventRecorder,
  userId: string,
  wait: boolean,
): Promise<string[]> {
  await repo.lockPostsTouchedBy(trx, userId, true);
  const member = await repo.lockMember(trx, userId);
  if (!member) throw unauthorized();
  // Posts that writes committing while the first lock was taken added (the member's own, or
  // ones they liked, commented or voted on, polls included): no such write can start now.
  await repo.lockPostsTouchedBy(trx, userId, wait);
  await repo.lockRelations(trx, userId, wait);
  await entities.lockTagsOfAuthor(trx, userId, wait);

  const images = await repo.imagesOfPosts(trx, userId, DELETED_MEMBER_IMAGES_MAX);
  if (member.avatar_url !== null && !images.includes(member.avatar_url)) {
    images.push(member.avatar_url);
  }
  const recipients = await notifications.recipientsTouchedByMember(trx, userId);
  // Marked revoked first, so the event closes their streams everywhere; the rows then cascade.
  const revoked = await sessions.revokeWithin(trx, events, userId, null);

  await repo.decrementFollowersOfFollowees(trx, userId);
  await repo.decrementFollowingOfFollowers(trx, userId);
  await repo.decrementLikeCounts(trx, userId);
  await repo.deleteLikes(trx, userId);
  await repo.decrementRepostCounts(trx, userId);
  await repo.deleteReposts(trx, userId);
  await repo.decrementVoteCounts(trx, userId, 1);
  await repo.decrementVoteCounts(trx, userId, -1);
  await repo.deleteVotes(trx, userId);
  await polls.withdrawVotesWithin(trx, events, userId);
  // Comments on others' posts would outlive the member (user_id SET NULL): they go too.
  await repo.decrementCommentCounts(trx, userId);
  await repo.deleteComments(trx, userId);
  await entities.forgetPostsOf(trx, userId);
  await repo.deletePosts(trx, userId);
  if (!(await repo.deleteMember(trx, userId))) throw unauthorized();

  await notifications.recordUnreadCounts(trx, events, recipients);
  events.record({ type: 'member.deleted', payload: { userId, mediaURLs: images } });
  return revoked;
}

/**
 * Deletes the account for the right password and the username typed out (any case, spaces
 * around it ignored), in one transaction: afterwards nothing of the member is left, their
 * tokens answer 401 and the username is free.
 */
export async function deleteAccount(
  deps: AccountDeps,
  viewer: Viewer,
  body: AccountDeleteBody,
): Promise<void> {
  const { transact, sessions } = deps;
  const row = await memberWithPassword(deps, viewer, body.password);
  if (body.username.trim().toLowerCase() !== row.username.toLowerCase()) {
    throw badRequest(AccountErrors.wrongUsername);
  }
  let revoked: string[] = [];
  for (let attempt = 1; ; attempt += 1) {
    const last = attempt >= DELETE_ATTEMPTS;
    try {
      revoked = await transact((trx, events) => removeMember(deps, trx, events, row.id, last));
      break;
    } catch (error) {
      if (last || !isLockConflict(error)) throw error;
      // Whoever held the lock finishes meanwhile; tries spread out so they do not collide.
      await sleep(Math.min(400, 10 * 2 ** attempt) * (0.5 + Math.random()));
    }
  }
  // This process at once; the others when the events reach them.
  sessions.forget(revoked);
}
