import { describe, expect, it } from 'vitest';
import { formatPostDate } from './formatPostDate';

describe('formatPostDate', () => {
  it('shows short month, day and year', () => {
    expect(formatPostDate(new Date(2026, 10, 22, 15, 30))).toBe('Nov 22, 2026');
    expect(formatPostDate(new Date(2025, 0, 3))).toBe('Jan 3, 2025');
  });

  it('reads ISO dates as the API sends them', () => {
    const iso = new Date(2026, 4, 9, 12).toISOString();
    expect(formatPostDate(iso)).toBe('May 9, 2026');
  });

  it('shows nothing for an invalid date', () => {
    expect(formatPostDate('not a date')).toBe('');
  });
});
