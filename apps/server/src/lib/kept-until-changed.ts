import { LRUCache } from 'lru-cache';

/**
 * Values read from the database and kept in `cache` until a change drops them (an event, or the
 * process's own write). A value read while a change was being dropped may predate it: take a
 * `mark()` before reading, and `keep` keeps the value only if nothing was dropped since.
 */
export function keptUntilChanged<Value extends object>(cache: LRUCache<string, Value>) {
  let changes = 0;
  const dropped = () => {
    changes += 1;
  };
  return {
    get: (key: string): Value | undefined => cache.get(key),
    /** Where the drops stand, before a read whose values `keep` may keep. */
    mark: (): number => changes,
    /** Keeps `value`, unless something was dropped since `mark`. */
    keep: (mark: number, key: string, value: Value): void => {
      if (changes === mark) cache.set(key, value);
    },
    forget: (key: string): void => {
      dropped();
      cache.delete(key);
    },
    forgetAll: (): void => {
      dropped();
      cache.clear();
    },
    /** Drops every value `test` picks (a member's, after their profile changed). */
    forgetWhere: (test: (value: Value) => boolean): void => {
      dropped();
      for (const [key, value] of cache.entries()) if (test(value)) cache.delete(key);
    },
  };
}

/**
 * As keptUntilChanged, for values that each change alone (a member's likes, their blocks): a change
 * drops its key's value and spoils only reads of that key, so values keep being kept while other
 * keys change all the time. A read's `mark` is a count of every drop so far; `keep` compares it
 * with when its key last changed. Those times are remembered for the `recentKeys` keys changed
 * last: a read that outlasts that many other keys' changes is taken as unchanged.
 */
export function keptByKeyUntilChanged<Value extends object>(
  cache: LRUCache<string, Value>,
  recentKeys = 50_000,
) {
  let drops = 0;
  // When every key last changed at once (forgetAll).
  let allChangedAt = 0;
  const changedAt = new LRUCache<string, number>({ max: recentKeys });
  return {
    get: (key: string): Value | undefined => cache.get(key),
    /** Where the drops stand, before a read whose value `keep` may keep. */
    mark: (): number => drops,
    /** Keeps `value`, unless its key was dropped since `mark`. */
    keep: (mark: number, key: string, value: Value): void => {
      if (Math.max(changedAt.peek(key) ?? 0, allChangedAt) <= mark) cache.set(key, value);
    },
    forget: (key: string): void => {
      drops += 1;
      changedAt.set(key, drops);
      cache.delete(key);
    },
    /** Drops every value, and spoils every read under way. */
    forgetAll: (): void => {
      drops += 1;
      allChangedAt = drops;
      cache.clear();
    },
  };
}

/** What a member's records were read as. */
export interface MemberRecords<Value> {
  /** What is kept of them. */
  value: Value;
  /** What is compared with maxPerMember: the records read, or the longest of the lists read. */
  count: number;
}

export interface KeptPerMemberOptions<Value> {
  /** Records kept over all members. */
  maxRecords: number;
  /** A member with more records than this is not kept: the caller asks for what it needs. */
  maxPerMember: number;
  /** How many records a kept value holds. */
  sizeOf: (value: Value) => number;
  /** Reads up to `limit` of the member's records. */
  read: (userId: string, limit: number) => Promise<MemberRecords<Value>>;
}

/**
 * Each recent member's own records (their likes and bookmarks, whom they follow, their votes),
 * read whole once and kept by member until one of them changes (`forget`, as keptByKeyUntilChanged
 * drops a key). A member with more than `maxPerMember` records is remembered as such, for
 * 10,000 members, and not read whole again: `of` answers null for them.
 */
export function keptPerMember<Value extends object>({
  maxRecords,
  maxPerMember,
  sizeOf,
  read,
}: KeptPerMemberOptions<Value>) {
  const kept = keptByKeyUntilChanged(
    new LRUCache<string, Value>({
      maxSize: maxRecords,
      sizeCalculation: (value) => Math.max(1, sizeOf(value)),
    }),
  );
  const tooMany = new LRUCache<string, true>({ max: 10_000 });

  async function load(userId: string): Promise<Value | null> {
    const mark = kept.mark();
    const { value, count } = await read(userId, maxPerMember + 1);
    if (count > maxPerMember) {
      tooMany.set(userId, true);
      return null;
    }
    kept.keep(mark, userId, value);
    return value;
  }

  return {
    /** The member's records, kept or read now; null for a member with more than kept. */
    of: async (userId: string): Promise<Value | null> =>
      kept.get(userId) ?? (tooMany.has(userId) ? null : load(userId)),
    /** Drops what is kept of the member, whose records changed. */
    forget: (userId: string): void => {
      kept.forget(userId);
      tooMany.delete(userId);
    },
  };
}
