import type { UserStub } from '@perch/contract';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { idListValue } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';
import { keptUntilChanged } from '../../lib/kept-until-changed';
import { withJson } from '../../lib/serialized';
import { toUserStub } from '../../modules/users/users.mapper';
import { findUserIdByUsername, summariesAmong } from '../../modules/users/users.repository';

type Db = Kysely<Database>;

export interface MemberSummariesDeps {
  /** Where summaries are read (a read-only connection on SQLite). */
  reads: Db;
  /** Summaries cached. */
  max: number;
}

/**
 * Member summaries (the contract's UserStub): members as other records list them (a post's
 * author, a profile's followers and following), cached by id with their JSON: such a list is then
 * a list of ids. A summary changes only with its member's profile ('profile.edited') and goes with
 * their account ('member.deleted'): the invalidation table drops it.
 *
 * Members' ids by username are cached too: a username never changes, and it names another member
 * only after its account was deleted ('member.deleted' drops it). Names not found are not cached, so
 * a member who registers is found at once.
 */
export function createMemberSummaries({ reads, max }: MemberSummariesDeps) {
  const summaries = keptUntilChanged(new LRUCache<string, UserStub>({ max }));
  const ids = keptUntilChanged(new LRUCache<string, { id: string }>({ max }));

  function forgetMember(userId: string): void {
    summaries.forget(userId);
    ids.forgetWhere((member) => member.id === userId);
  }

  return {
    /**
     * The summaries of the members among `ids` that exist, in the order of `ids`. In a transaction,
     * pass it as `within`: those not cached are read through it rather than through another
     * connection (on PostgreSQL, writes each holding one of the pool's connections while waiting
     * for a second would wait for each other), and are not cached, as the transaction may yet see
     * what it has not committed.
     */
    async of(memberIds: readonly string[], within?: Db): Promise<UserStub[]> {
      // Taken before the read: the cache may drop any of them meanwhile.
      const cached = memberIds.map((id) => summaries.get(id));
      const missing = memberIds.filter((_, index) => cached[index] === undefined);
      const read = new Map<string, UserStub>();
      if (missing.length > 0) {
        const mark = summaries.mark();
        const source = within ?? reads;
        for (const row of await summariesAmong(source, idListValue(source, missing))) {
          const plain = toUserStub(row);
          const summary = withJson(plain, JSON.stringify(plain));
          read.set(row.id, summary);
          if (!within) summaries.keep(mark, row.id, summary);
        }
      }
      const found: UserStub[] = [];
      memberIds.forEach((id, index) => {
        const summary = cached[index] ?? read.get(id);
        if (summary) found.push(summary);
      });
      return found;
    },
    /** The id of the member named `username` (any case), or null when there is none. */
    async idOf(username: string): Promise<string | null> {
      const name = username.toLowerCase();
      const cached = ids.get(name);
      if (cached) return cached.id;
      const mark = ids.mark();
      const id = await findUserIdByUsername(reads, name);
      if (id === undefined) return null;
      ids.keep(mark, name, { id });
      return id;
    },
    /** Drops the summary of a member whose profile changed. */
    forget: summaries.forget,
    /** Drops all that is cached of a member whose account was deleted. */
    forgetMember,
  };
}

export type MemberSummaries = ReturnType<typeof createMemberSummaries>;
