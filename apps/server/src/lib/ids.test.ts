import { decodeTime, isValid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newId } from './ids';

describe('newId', () => {
  it('makes valid, strictly increasing ULIDs for the current time', () => {
    const ids = Array.from({ length: 5000 }, () => newId());
    expect(ids.every((id) => isValid(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('draws every character of the random part evenly, over more than one pool of bytes', () => {
    const at = Date.UTC(2020, 0, 1);
    const counts = new Map<string, number>();
    const ids = Array.from({ length: 4000 }, () => newId(at));
    for (const id of ids)
      for (const char of id.slice(10)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => decodeTime(id) === at)).toBe(true);
    // 64,000 characters over Crockford's 32: about 2,000 each.
    expect(counts.size).toBe(32);
    for (const count of counts.values()) expect(Math.abs(count - 2000)).toBeLessThan(300);
  });
});
