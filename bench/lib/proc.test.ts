import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runQueueWaitNs, runQueueWaitSecondsOf, waitPerSecond } from './proc';

describe('run-queue wait', () => {
  it("reads a thread's wait from its schedstat", () => {
    expect(runQueueWaitNs('2563712040 87120333 10431\n')).toBe(87120333);
    expect(runQueueWaitNs('5 0 1')).toBe(0);
    expect(runQueueWaitNs('')).toBeNull();
    expect(runQueueWaitNs('5 -3 1')).toBeNull();
    expect(runQueueWaitNs('5 x 1')).toBeNull();
  });

  it.runIf(existsSync(`/proc/${process.pid}/task/${process.pid}/schedstat`))(
    "sums this process's main thread, and knows no process that is gone",
    () => {
      const first = runQueueWaitSecondsOf(process.pid);
      expect(first).toBeTypeOf('number');
      expect(first).toBeGreaterThanOrEqual(0);
      expect(runQueueWaitSecondsOf(process.pid) ?? -1).toBeGreaterThanOrEqual(first ?? 0);
      expect(runQueueWaitSecondsOf(2 ** 22 + 1)).toBeNull();
    },
  );

  it('turns two readings into milliseconds a second', () => {
    expect(waitPerSecond(1.0, 1.5, 5)).toBe(100);
    expect(waitPerSecond(2, 2, 5)).toBe(0);
    expect(waitPerSecond(null, 1, 5)).toBeNull();
    expect(waitPerSecond(1, null, 5)).toBeNull();
    expect(waitPerSecond(1, 2, 0)).toBeNull();
    expect(waitPerSecond(2, 1, 5)).toBeNull();
  });
});
