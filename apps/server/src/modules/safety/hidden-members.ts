import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../platform/db/schema';
import { keptByKeyUntilChanged } from '../../lib/kept-until-changed';
import * as repo from './safety.repository';

type Db = Kysely<Database>;

/** How the viewer stands to other members, as every read that filters them needs it. */
export interface Relations {
  /** Members the viewer blocked. */
  blocking: ReadonlySet<string>;
  /** Members who blocked the viewer. */
  blockedBy: ReadonlySet<string>;
  /** Members the viewer muted. */
  muting: ReadonlySet<string>;
  /** Blocked either way: kept out of everything, and any call reaching them answers 404. */
  blocked: readonly string[];
  /** Blocked either way or muted: whose posts, comments and notifications the viewer never sees. */
  hidden: readonly string[];
}

const NO_ONE: Relations = {
  blocking: new Set(),
  blockedBy: new Set(),
  muting: new Set(),
  blocked: [],
  hidden: [],
};

export interface HiddenMembersDeps {
  /** Where relations are read (a read-only connection on SQLite). */
  reads: Db;
  /** Members whose relations are kept (most have none: an entry is then a few bytes). */
  max: number;
}

function relationsFrom(rows: readonly repo.RelationRow[]): Relations {
  if (rows.length === 0) return NO_ONE;
  const sets = {
    blocking: new Set<string>(),
    blocked_by: new Set<string>(),
    muting: new Set<string>(),
  };
  for (const row of rows) sets[row.kind].add(row.member_id);
  const blocked = new Set([...sets.blocking, ...sets.blocked_by]);
  return {
    blocking: sets.blocking,
    blockedBy: sets.blocked_by,
    muting: sets.muting,
    blocked: [...blocked],
    hidden: [...new Set([...blocked, ...sets.muting])],
  };
}

/**
 * Who each recent viewer blocks, is blocked by and mutes, kept in memory: every feed, list and
 * search filters by it, and most viewers have no one, so it must cost no query per request. A
 * viewer's relations are read once (one query) and dropped when a block or mute involving them
 * changes (the invalidation table: at commit in the process that made the change, when the relay
 * hands them the event in the others).
 *
 * Reads here may trail a change made in another process by the relay's delay; writes that must
 * not cross a block (follow, like, comment…) ask the database in their transaction instead.
 */
export function createHiddenMembers({ reads, max }: HiddenMembersDeps) {
  const cache = keptByKeyUntilChanged(new LRUCache<string, Relations>({ max }));
  const forget = cache.forget;

  async function load(viewerId: string): Promise<Relations> {
    const mark = cache.mark();
    const relations = relationsFrom(await repo.relationsOf(reads, viewerId));
    cache.keep(mark, viewerId, relations);
    return relations;
  }

  async function relationsOf(viewerId: string | null): Promise<Relations> {
    if (viewerId === null) return NO_ONE;
    return cache.get(viewerId) ?? load(viewerId);
  }

  return {
    relationsOf,
    /** The members whose posts, comments and notifications the viewer does not see. */
    hiddenFor: async (viewerId: string | null): Promise<readonly string[]> =>
      (await relationsOf(viewerId)).hidden,
    /** The members blocked either way with the viewer. */
    blockedFor: async (viewerId: string | null): Promise<readonly string[]> =>
      (await relationsOf(viewerId)).blocked,
    /** Whether a block stands between the viewer and the member (as the cache knows it). */
    async separated(viewerId: string | null, memberId: string): Promise<boolean> {
      if (viewerId === null || viewerId === memberId) return false;
      const relations = await relationsOf(viewerId);
      return relations.blocking.has(memberId) || relations.blockedBy.has(memberId);
    },

    /**
     * In a write's transaction, read from the database (not the cache, which may trail it and
     * reads on another connection): whom the member does not see.
     */
    hiddenWithin: async (trx: Db, userId: string): Promise<readonly string[]> =>
      relationsFrom(await repo.relationsOf(trx, userId)).hidden,

    /** In a write's transaction, read from the database: whether either blocks the other. */
    isBlockedEitherWay: (trx: Db, a: string, b: string): Promise<boolean> =>
      a === b ? Promise.resolve(false) : repo.blockBetween(trx, a, b),

    /**
     * In a write's transaction: whether the actor's doing must not reach the recipient (a block
     * either way, or the recipient mutes the actor): no notification is made then.
     */
    async keepsFrom(trx: Db, actorId: string, recipientId: string): Promise<boolean> {
      if (actorId === recipientId) return false;
      return (
        (await repo.blockBetween(trx, actorId, recipientId)) ||
        (await repo.mutes(trx, recipientId, actorId))
      );
    },

    /**
     * Drops the member's relations (a block or mute of theirs, or one of them, committed; they
     * left: others may still list their id, which matches nothing any more). The invalidation
     * table calls it.
     */
    forget,
  };
}

export type HiddenMembers = ReturnType<typeof createHiddenMembers>;
