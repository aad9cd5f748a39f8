import type { LRUCache } from 'lru-cache';

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
