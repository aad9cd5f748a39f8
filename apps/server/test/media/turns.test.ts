import { describe, expect, it } from 'vitest';
import { createTurns } from '../../src/modules/media/media.turns';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A piece of work that finishes when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('taking turns', () => {
  it('runs at most the limit at once, the rest in the order they came', async () => {
    const turns = createTurns(2);
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    const all = gates.map((g, i) =>
      turns.take(async () => {
        started.push(i);
        await g.opened;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(turns.stats()).toMatchObject({ running: 2, waiting: 3 });

    gates[1]?.open();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    // A newcomer waits behind those already waiting, even as a turn comes free.
    const late = turns.take(async () => {
      started.push(5);
      return 5;
    });
    gates[0]?.open();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);

    for (const g of gates) g.open();
    expect(await Promise.all([...all, late])).toEqual([0, 1, 2, 3, 4, 5]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(turns.stats()).toEqual({ running: 0, waiting: 0, most: 2, taken: 6 });
  });

  it('gives the turn back when the work fails', async () => {
    const turns = createTurns(1);
    await expect(
      turns.take(() => {
        throw new Error('broken image');
      }),
    ).rejects.toThrow('broken image');
    await expect(turns.take(() => Promise.reject(new Error('again')))).rejects.toThrow('again');
    expect(await turns.take(() => Promise.resolve('next'))).toBe('next');
    expect(turns.stats()).toEqual({ running: 0, waiting: 0, most: 1, taken: 3 });
  });
});
