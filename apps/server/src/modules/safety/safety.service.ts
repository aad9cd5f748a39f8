import { ErrorMessages, SafetyErrors, type PageQuery, type UserPage } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Viewer } from '../../lib/viewer';
import type { Database } from '../../platform/db/schema';
import type { Transact } from '../../platform/events/transactions';
import { decodeCursor, pageOf } from '../../lib/cursor';
import { badRequest, notFound } from '../../lib/errors';
import type { NotificationsService } from '../notifications/notifications.service';
import type { UsersService } from '../users/users.service';
import * as repo from './safety.repository';

type Db = Kysely<Database>;

export interface SafetyServiceDeps {
  /** Where the lists are read (a read-only connection on SQLite). */
  reads: Db;
  transact: Transact;
  users: Pick<UsersService, 'lockPair' | 'endFollowsBetween' | 'listedFor'>;
  notifications: Pick<NotificationsService, 'forgetBetween'>;
}

/**
 * Block and mute (see the contract's safety.ts): the calls that change and list them. What they
 * hide, every module reads from HiddenMembers, which the invalidation table keeps current.
 */
export function createSafetyService({ reads, transact, users, notifications }: SafetyServiceDeps) {
  /**
   * One transaction, the pair of members locked first (as a follow takes them, so that a follow
   * racing the block either ends before it, and is ended by it, or sees it and is refused): the
   * block, the follows between them both ways, the notifications between them.
   */
  async function block(viewer: Viewer, targetId: string): Promise<void> {
    if (targetId === viewer.id) throw badRequest(SafetyErrors.blockSelf);
    await transact(async (trx, events) => {
      if (!(await users.lockPair(trx, viewer.id, targetId))) {
        throw notFound(ErrorMessages.userNotFound);
      }
      if (!(await repo.insertRow(trx, 'blocks', viewer.id, targetId, Date.now()))) return;
      await users.endFollowsBetween(trx, events, viewer.id, targetId);
      await notifications.forgetBetween(trx, events, viewer.id, targetId);
      events.record({ type: 'member.blocked', payload: { userId: viewer.id, targetId } });
    });
  }

  async function unblock(viewer: Viewer, targetId: string): Promise<void> {
    if (targetId === viewer.id) throw badRequest(SafetyErrors.blockSelf);
    await transact(async (trx, events) => {
      if (!(await users.lockPair(trx, viewer.id, targetId))) {
        throw notFound(ErrorMessages.userNotFound);
      }
      if (await repo.deleteRow(trx, 'blocks', viewer.id, targetId)) {
        events.record({ type: 'member.unblocked', payload: { userId: viewer.id, targetId } });
      }
    });
  }

  /** Mute and unmute share everything but the direction of the change. */
  async function changeMute(viewer: Viewer, targetId: string, mute: boolean): Promise<void> {
    if (targetId === viewer.id) throw badRequest(SafetyErrors.muteSelf);
    await transact(async (trx, events) => {
      if (!(await users.lockPair(trx, viewer.id, targetId))) {
        throw notFound(ErrorMessages.userNotFound);
      }
      const changed = mute
        ? await repo.insertRow(trx, 'mutes', viewer.id, targetId, Date.now())
        : await repo.deleteRow(trx, 'mutes', viewer.id, targetId);
      if (changed) {
        events.record({
          type: mute ? 'member.muted' : 'member.unmuted',
          payload: { userId: viewer.id, targetId },
        });
      }
    });
  }

  async function list(
    viewer: Viewer,
    table: repo.SafetyTableName,
    query: PageQuery,
  ): Promise<UserPage> {
    const after = query.cursor ? decodeCursor(query.cursor, ['number', 'string'] as const) : null;
    const rows = await repo.listTargets(reads, table, {
      userId: viewer.id,
      after,
      limit: query.limit,
    });
    const { items, nextCursor } = pageOf(rows, query.limit, (row) => [row.listed_at, row.id]);
    return { users: users.listedFor(items, viewer), nextCursor };
  }

  return {
    block,
    unblock,
    mute: (viewer: Viewer, targetId: string) => changeMute(viewer, targetId, true),
    unmute: (viewer: Viewer, targetId: string) => changeMute(viewer, targetId, false),
    blocked: (viewer: Viewer, query: PageQuery) => list(viewer, 'blocks', query),
    muted: (viewer: Viewer, query: PageQuery) => list(viewer, 'mutes', query),
  };
}

export type SafetyService = ReturnType<typeof createSafetyService>;
