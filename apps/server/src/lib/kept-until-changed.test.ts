import { LRUCache } from 'lru-cache';
import { describe, expect, it } from 'vitest';
import { keptByKeyUntilChanged, keptPerMember, keptUntilChanged } from './kept-until-changed';

const fresh = () => keptUntilChanged(new LRUCache<string, { owner: string }>({ max: 10 }));

describe('keptUntilChanged', () => {
  it('keeps a value read while nothing was dropped', () => {
    const kept = fresh();
    kept.keep(kept.mark(), 'a', { owner: 'ada' });
    expect(kept.get('a')).toEqual({ owner: 'ada' });
  });

  it('does not keep a value read while something was dropped', () => {
    const kept = fresh();
    const mark = kept.mark();
    kept.forget('other');
    kept.keep(mark, 'a', { owner: 'ada' });
    expect(kept.get('a')).toBeUndefined();
  });

  it('drops one value, the values a test picks, or all of them', () => {
    const kept = fresh();
    const owners: [string, string][] = [
      ['a', 'ada'],
      ['b', 'bo'],
      ['c', 'ada'],
      ['d', 'cy'],
    ];
    for (const [key, owner] of owners) kept.keep(kept.mark(), key, { owner });
    kept.forget('d');
    expect(kept.get('d')).toBeUndefined();
    kept.forgetWhere((value) => value.owner === 'ada');
    expect([kept.get('a'), kept.get('b'), kept.get('c')]).toEqual([
      undefined,
      { owner: 'bo' },
      undefined,
    ]);
    kept.forgetAll();
    expect(kept.get('b')).toBeUndefined();
  });
});

describe('keptByKeyUntilChanged', () => {
  const fresh = () => keptByKeyUntilChanged(new LRUCache<string, { owner: string }>({ max: 10 }));

  it('keeps a value read while other keys were dropped', () => {
    const kept = fresh();
    const mark = kept.mark();
    kept.forget('other');
    kept.keep(mark, 'a', { owner: 'ada' });
    expect(kept.get('a')).toEqual({ owner: 'ada' });
  });

  it('does not keep a value read while its key was dropped', () => {
    const kept = fresh();
    const mark = kept.mark();
    kept.forget('a');
    kept.keep(mark, 'a', { owner: 'ada' });
    expect(kept.get('a')).toBeUndefined();
  });

  it('does not keep an older read once a newer one of the same key was kept', () => {
    const kept = fresh();
    const older = kept.mark();
    kept.forget('a');
    const newer = kept.mark();
    kept.keep(newer, 'a', { owner: 'new' });
    kept.keep(older, 'a', { owner: 'old' });
    expect(kept.get('a')).toEqual({ owner: 'new' });
  });

  it('drops every value at once, and keeps none read meanwhile', () => {
    const kept = fresh();
    kept.keep(kept.mark(), 'a', { owner: 'ada' });
    const mark = kept.mark();
    kept.forgetAll();
    expect(kept.get('a')).toBeUndefined();
    kept.keep(mark, 'b', { owner: 'bo' });
    expect(kept.get('b')).toBeUndefined();
    kept.keep(kept.mark(), 'b', { owner: 'bo' });
    expect(kept.get('b')).toEqual({ owner: 'bo' });
  });

  it('keeps a value read after its key last changed', () => {
    const kept = fresh();
    kept.forget('a');
    kept.keep(kept.mark(), 'a', { owner: 'ada' });
    expect(kept.get('a')).toEqual({ owner: 'ada' });
    kept.forget('a');
    expect(kept.get('a')).toBeUndefined();
  });
});

describe('keptPerMember', () => {
  /** Members' records as the database holds them, and how often each member was read whole. */
  function members(records: Record<string, string[]>) {
    const reads: string[] = [];
    const kept = keptPerMember<Set<string>>({
      maxRecords: 100,
      maxPerMember: 2,
      sizeOf: (ids) => ids.size,
      read: (userId, limit) => {
        reads.push(userId);
        const ids = (records[userId] ?? []).slice(0, limit);
        return Promise.resolve({ value: new Set(ids), count: ids.length });
      },
    });
    return { kept, reads };
  }

  it("reads a member's records once and keeps them until forgotten", async () => {
    const records = { ada: ['p1'] };
    const { kept, reads } = members(records);
    expect([...((await kept.of('ada')) ?? [])]).toEqual(['p1']);
    expect([...((await kept.of('ada')) ?? [])]).toEqual(['p1']);
    expect(reads).toEqual(['ada']);
    records.ada.push('p2');
    kept.forget('ada');
    expect([...((await kept.of('ada')) ?? [])]).toEqual(['p1', 'p2']);
    expect(reads).toEqual(['ada', 'ada']);
  });

  it('answers null for a member with more records than kept, without reading them again', async () => {
    const records = { bo: ['p1', 'p2', 'p3'] };
    const { kept, reads } = members(records);
    expect(await kept.of('bo')).toBeNull();
    expect(await kept.of('bo')).toBeNull();
    expect(reads).toEqual(['bo']);
    records.bo = ['p1'];
    kept.forget('bo');
    expect([...((await kept.of('bo')) ?? [])]).toEqual(['p1']);
  });

  it('does not keep records read while the member was forgotten', async () => {
    const { kept, reads } = members({ cy: ['p1'] });
    const reading = kept.of('cy');
    kept.forget('cy');
    expect([...((await reading) ?? [])]).toEqual(['p1']);
    await kept.of('cy');
    expect(reads).toEqual(['cy', 'cy']);
  });
});
