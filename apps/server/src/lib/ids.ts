import { monotonicFactory, ulid } from 'ulid';

const nextUlid = monotonicFactory();
let latest = 0;

/**
 * Time-sortable, URL-safe, 26-character ids. Ids made for the current time are strictly increasing
 * within this process; ids for an earlier moment (imports, demo data) carry that moment's time.
 */
export function newId(at: number = Date.now()): string {
  if (at < latest) return ulid(at);
  latest = at;
  return nextUlid(at);
}
