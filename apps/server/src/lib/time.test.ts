import { describe, expect, it } from 'vitest';
import { toIso } from './time';

describe('toIso', () => {
  it('formats as Date does, whether kept or not, past the bound of kept times too', () => {
    const start = Date.UTC(2026, 10, 27, 12, 0, 0, 5);
    for (let round = 0; round < 2; round += 1) {
      for (let i = 0; i < 25_000; i += 1) {
        const ms = start + i * 997;
        expect(toIso(ms)).toBe(new Date(ms).toISOString());
      }
    }
    expect(toIso(0)).toBe('1970-01-01T00:00:00.000Z');
  });

  it('refuses what is not a time, as Date does', () => {
    expect(() => toIso(Number.NaN)).toThrow(RangeError);
    expect(() => toIso(Number.NaN)).toThrow(RangeError);
  });
});
