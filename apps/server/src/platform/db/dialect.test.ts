import { describe, expect, it } from 'vitest';
import { splitIds } from './dialect';

describe('splitIds', () => {
  it('answers no ids for a list that had none', () => {
    expect(splitIds(null)).toEqual([]);
    expect(splitIds(undefined)).toEqual([]);
    expect(splitIds('')).toEqual([]);
  });

  it('keeps a joined list in its order', () => {
    expect(splitIds('01A,01B,01C')).toEqual(['01A', '01B', '01C']);
    expect(splitIds('01A')).toEqual(['01A']);
  });

  it('puts a list joined out of order back in id order', () => {
    expect(splitIds('01C,01A,01B')).toEqual(['01A', '01B', '01C']);
  });
});
