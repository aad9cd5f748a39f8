import { describe, expect, it } from 'vitest';
import { growthReport, growthRow, median, type GrowthResult, type GrowthSlice } from './growth';
import { smallDatabaseUrl } from './run/growth-pairs';

/** A slice of `requests` answers costing `cpuUs` µs each, of `bytes` each. */
const slice = (cpuUs: number | null, requests = 10_000, bytes = 12_000): GrowthSlice => ({
  requests,
  cpuSeconds: cpuUs === null ? null : (cpuUs * requests) / 1e6,
  rps: requests / 3,
  bytesPerAnswer: bytes,
});

describe('growth', () => {
  it('takes the median round, each round the large slice’s CPU a request over the small’s', () => {
    // The machine slowed in round 2 for both slices alike: that round's growth is like the others.
    const row = growthRow(
      'feed-latest',
      [slice(150), slice(300), slice(160)],
      [slice(120), slice(250), slice(125)],
      30_000,
    );
    expect(row.rounds).toEqual([1.25, 1.2, 1.28]);
    expect(row.cpuGrowth).toBe(1.25);
    // Each side's CPU is over all its slices' requests.
    expect(row.large.cpuUsPerRequest).toBe(203);
    expect(row.small.cpuUsPerRequest).toBe(165);
    expect(row.large.ratio).toBeCloseTo(3333.3 / 30_000, 3);
  });

  it('leaves out rounds whose CPU is unknown, and has no growth without any', () => {
    const partial = growthRow('search', [slice(100), slice(null)], [slice(80), slice(90)], 0);
    expect(partial.rounds).toEqual([1.25, null]);
    expect(partial.cpuGrowth).toBe(1.25);
    expect(partial.large.cpuUsPerRequest).toBe(100);
    expect(partial.small.ratio).toBe(0);
    const none = growthRow('search', [slice(null)], [slice(80)], 0);
    expect(none.cpuGrowth).toBeNull();
    expect(none.large.cpuUsPerRequest).toBeNull();
  });

  it('weighs each side’s answer size by its requests', () => {
    const row = growthRow(
      'profile-spec',
      [slice(400, 1_000, 26_000), slice(400, 3_000, 30_000)],
      [slice(200, 1_000, 19_000), slice(200, 1_000, 21_000)],
      0,
    );
    expect(row.large.bytesPerAnswer).toBe(29_000);
    expect(row.small.bytesPerAnswer).toBe(20_000);
  });

  it('finds the median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it('names the reads over the target, and says why nothing was measured', () => {
    const growth: GrowthResult = {
      smallPosts: 10_000,
      largePosts: 1_000_000,
      rounds: 2,
      sliceSeconds: 3,
      rows: [
        growthRow('feed-latest', [slice(230), slice(230)], [slice(200), slice(200)], 30_000),
        growthRow('user-posts', [slice(387), slice(380)], [slice(216), slice(216)], 30_000),
      ],
      work: {
        members: 100,
        followingSmall: { min: 3, median: 40, max: 90 },
        followingLarge: { min: 3, median: 41, max: 92 },
      },
      error: null,
    };
    const lines = growthReport(growth);
    expect(lines[0]).toContain('median of 2 rounds of 3 s slices');
    expect(lines[1]).toContain('Equal work: 100 members on each side');
    expect(lines[1]).toContain('3 / 40 / 90 small, 3 / 41 / 92 large');
    expect(lines.at(-1)).toBe('Over 1.2×: user-posts 1.78×.');
    expect(lines.some((line) => line.startsWith('feed-latest') && line.includes('1.15×'))).toBe(
      true,
    );
    expect(lines.some((line) => line.startsWith('user-posts') && line.includes('1.76–1.79'))).toBe(
      true,
    );
    expect(
      growthReport({ ...growth, rows: [], error: 'the small instance did not start' }),
    ).toEqual([lines[0], '  not measured: the small instance did not start']);
  });

  it('gives the small instance a database of its own on PostgreSQL', () => {
    expect(smallDatabaseUrl('postgres://postgres@127.0.0.1:5432/perch_bench')).toBe(
      'postgres://postgres@127.0.0.1:5432/perch_bench_10000',
    );
    expect(smallDatabaseUrl(null)).toBeNull();
  });
});
