import type { PublishedEvent, UserStub } from '@perch/contract';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { idListValue } from '../../db/dialect';
import type { Database } from '../../db/schema';
import { withJson } from '../../lib/serialized';
import { toUserStub } from './users.mapper';
import { stubsAmong } from './users.repository';

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
 */
export function createMemberStubs({ reads, max }: MemberStubsDeps) {
  const stubs = new LRUCache<string, UserStub>({ max });
  // Stubs read while a profile change was being dropped may predate it: those are used, not kept.
  let changes = 0;

  function forget(userId: string): void {
    changes += 1;
    stubs.delete(userId);
  }

  return {
    /** The stubs of the members among `ids` that exist, in the order of `ids`. */
    async of(ids: readonly string[]): Promise<UserStub[]> {
      // Taken before the read: the cache may drop any of them meanwhile.
      const cached = ids.map((id) => stubs.get(id));
      const missing = ids.filter((_, index) => cached[index] === undefined);
      const read = new Map<string, UserStub>();
      if (missing.length > 0) {
        const before = changes;
        for (const row of await stubsAmong(reads, idListValue(reads, missing))) {
          const stub = toUserStub(row);
          read.set(row.id, withJson(stub, JSON.stringify(stub)));
        }
        if (changes === before) for (const [id, stub] of read) stubs.set(id, stub);
      }
      const found: UserStub[] = [];
      ids.forEach((id, index) => {
        const stub = cached[index] ?? read.get(id);
        if (stub) found.push(stub);
      });
      return found;
    },
    forget,
    /** For relay.listen: drops the stubs of members whose profile changed or who left. */
    listener: (events: readonly PublishedEvent[]): void => {
      for (const event of events) {
        if (event.type === 'profile.edited' || event.type === 'member.deleted') {
          forget(event.payload.userId);
        }
      }
    },
  };
}

export type MemberStubs = ReturnType<typeof createMemberStubs>;
