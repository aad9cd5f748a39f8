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
