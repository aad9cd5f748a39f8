import { describe, expect, it } from 'vitest';
import { toIso } from './time';

const asDate = (ms: number) => new Date(ms).toISOString();

describe('toIso', () => {
  it('formats as Date does, through days, leap days and more days than it keeps', () => {
    const start = Date.UTC(2026, 10, 27, 12, 0, 0, 5);
    for (let round = 0; round < 2; round += 1) {
      for (let i = 0; i < 25_000; i += 1) {
        const ms = start + i * 997;
        expect(toIso(ms)).toBe(asDate(ms));
      }
    }
    // Every day of 12 years, at a time that moves through the day: past the days kept.
    for (let day = 0; day < 12 * 366; day += 1) {
      const ms = Date.UTC(2020, 0, 1) + day * 86_400_000 + ((day * 7_919_123) % 86_400_000);
      expect(toIso(ms)).toBe(asDate(ms));
    }
    for (const ms of [
      0,
      1,
      999,
      86_399_999,
      86_400_000,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(2000, 1, 29),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    ]) {
      expect(toIso(ms), String(ms)).toBe(asDate(ms));
    }
  });

  it('formats times before 1970, after 9999 and between milliseconds as Date does', () => {
    for (const ms of [-1, -86_400_001, Date.UTC(10000, 0, 1), Date.UTC(-1, 0, 1), 1.5, 1e15]) {
      expect(toIso(ms), String(ms)).toBe(asDate(ms));
    }
  });

  it('refuses what is not a time, as Date does', () => {
    for (const ms of [Number.NaN, Infinity, 8.64e15 + 1]) {
      expect(() => toIso(ms)).toThrow(RangeError);
    }
  });
});
