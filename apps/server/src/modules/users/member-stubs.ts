import type { PublishedEvent, UserStub } from '@perch/contract';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { idListValue } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';
import { keptUntilChanged } from '../../lib/kept-until-changed';
import { withJson } from '../../lib/serialized';
import { toUserStub } from './users.mapper';
import { findUserIdByUsername, stubsAmong } from './users.repository';

type Db = Kysely<Database>;

export interface MemberStubsDeps {
  /** Where stubs are read (a read-only connection on SQLite). */
  reads: Db;
  /** Stubs kept. */
  max: number;
}

/**
 * Members as other records list them (a profile's followers and following, up to 500 each in the
 * original API's shape), kept by id with their JSON: such a list is then a list of ids. A stub
 * changes only with its member's profile ('profile.edited') and goes with their account
 * ('member.deleted'); each process drops it when the relay hands it the event, and the process
 * that made the change at once.
 *
 * Members' ids by username are kept too: a username never changes, and it names another member
 * only after its account was deleted ('member.deleted' drops it). Names not found are not kept, so
 * a member who registers is found at once.
 */
export function createMemberStubs({ reads, max }: MemberStubsDeps) {
  const stubs = keptUntilChanged(new LRUCache<string, UserStub>({ max }));
  const ids = keptUntilChanged(new LRUCache<string, { id: string }>({ max }));

  function forgetMember(userId: string): void {
    stubs.forget(userId);
    ids.forgetWhere((member) => member.id === userId);
  }

  return {
    /**
     * The stubs of the members among `ids` that exist, in the order of `ids`. In a transaction,
     * pass it as `within`: those not kept are read through it rather than through another
     * connection (on PostgreSQL, writes each holding one of the pool's connections while waiting
     * for a second would wait for each other), and are not kept, as the transaction may yet see
     * what it has not committed.
     */
    async of(memberIds: readonly string[], within?: Db): Promise<UserStub[]> {
      // Taken before the read: the cache may drop any of them meanwhile.
      const cached = memberIds.map((id) => stubs.get(id));
      const missing = memberIds.filter((_, index) => cached[index] === undefined);
      const read = new Map<string, UserStub>();
      if (missing.length > 0) {
        const mark = stubs.mark();
        const source = within ?? reads;
        for (const row of await stubsAmong(source, idListValue(source, missing))) {
          const plain = toUserStub(row);
          const stub = withJson(plain, JSON.stringify(plain));
          read.set(row.id, stub);
          if (!within) stubs.keep(mark, row.id, stub);
        }
      }
      const found: UserStub[] = [];
      memberIds.forEach((id, index) => {
        const stub = cached[index] ?? read.get(id);
        if (stub) found.push(stub);
      });
      return found;
    },
    /** The id of the member named `username` (any case), or null when there is none. */
    async idOf(username: string): Promise<string | null> {
      const name = username.toLowerCase();
      const kept = ids.get(name);
      if (kept) return kept.id;
      const mark = ids.mark();
      const id = await findUserIdByUsername(reads, name);
      if (id === undefined) return null;
      ids.keep(mark, name, { id });
      return id;
    },
    /** Drops what is kept of a member whose profile changed. */
    forget: stubs.forget,
    /** Drops all that is kept of a member whose account was deleted. */
    forgetMember,
    /** For relay.listen: drops the stubs of members whose profile changed or who left. */
    listener: (events: readonly PublishedEvent[]): void => {
      for (const event of events) {
        if (event.type === 'profile.edited') stubs.forget(event.payload.userId);
        else if (event.type === 'member.deleted') forgetMember(event.payload.userId);
      }
    },
  };
}

export type MemberStubs = ReturnType<typeof createMemberStubs>;
