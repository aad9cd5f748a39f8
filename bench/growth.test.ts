import { describe, expect, it } from 'vitest';
import { benchJsonOf, growthReport, growthRows, type GrowthResult } from './growth';
import type { ScenarioResult } from './lib/load';

const figures = (bytesPerAnswer: number) => ({
  rps: 0,
  p50: 0,
  p99: 0,
  requests: 0,
  errors: 0,
  timeouts: 0,
  non2xx: 0,
  bytesPerAnswer,
});

const large = (name: string, cpuUsPerRequest: number | null, ratio: number): ScenarioResult => ({
  name,
  what: name,
  rps: ratio * 30_000,
  ratio,
  p50: 1,
  p99: 2,
  errors: 0,
  non2xx: 0,
  throughput: figures(12_000),
  latency: figures(12_000),
  rssMB: null,
  cpuUsPerRequest,
  sampleFailure: null,
});

const small = {
  baseline: { rps: 28_000 },
  scenarios: [
    { name: 'feed-latest', ratio: 0.2, cpuUsPerRequest: 200, bytesPerAnswer: 11_000 },
    { name: 'user-posts', ratio: 0.12, cpuUsPerRequest: 216, bytesPerAnswer: 12_000 },
    { name: 'search', ratio: 0.1, cpuUsPerRequest: null, bytesPerAnswer: 2_100 },
  ],
  verification: { failed: false },
};

describe('growth', () => {
  it('divides each read’s cost on the large instance by its cost on the small one', () => {
    const rows = growthRows(small, [
      large('feed-latest', 230, 0.16),
      large('user-posts', 387, 0.08),
      large('search', 300, 0.1),
      large('explore', 250, 0.12),
    ]);
    expect(rows.map((row) => [row.name, row.cpuGrowth, row.small.ratio, row.large.ratio])).toEqual([
      ['feed-latest', 1.15, 0.2, 0.16],
      ['user-posts', 1.79, 0.12, 0.08],
      ['search', null, 0.1, 0.1],
    ]);
    expect(rows[1]?.small.bytesPerAnswer).toBe(12_000);
    expect(rows[1]?.large.cpuUsPerRequest).toBe(387);
  });

  it('reads the last BENCH_JSON line of a run’s output', () => {
    const output = [
      'BENCH_JSON {"baseline":null,"scenarios":[],"verification":{"failed":true}}',
      '  like  2213 req/s',
      `BENCH_JSON ${JSON.stringify(small)}`,
      '',
    ].join('\n');
    expect(benchJsonOf(output)?.scenarios.map((s) => s.name)).toEqual([
      'feed-latest',
      'user-posts',
      'search',
    ]);
    expect(benchJsonOf('no figures here')).toBeNull();
  });

  it('names the reads over the target, and says why nothing was measured', () => {
    const growth: GrowthResult = {
      smallPosts: 10_000,
      largePosts: 1_000_000,
      smallBaselineRps: 28_000,
      rows: growthRows(small, [large('feed-latest', 230, 0.16), large('user-posts', 387, 0.08)]),
      error: null,
    };
    const lines = growthReport(growth);
    expect(lines[0]).toContain('baseline of the small run 28,000 req/s');
    expect(lines.at(-1)).toBe('Over 1.2×: user-posts 1.79×.');
    expect(lines.some((line) => line.startsWith('feed-latest') && line.includes('1.15×'))).toBe(
      true,
    );
    expect(
      growthReport({ ...growth, rows: [], error: 'the run on 10,000 posts ended with code 1' }),
    ).toEqual([lines[0], '  not measured: the run on 10,000 posts ended with code 1']);
  });
});
