import { LRUCache } from 'lru-cache';
import { describe, expect, it } from 'vitest';
import { keptByKeyUntilChanged, keptUntilChanged } from './kept-until-changed';

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
