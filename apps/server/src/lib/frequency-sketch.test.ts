import { describe, expect, it } from 'vitest';
import { frequencySketch } from './frequency-sketch';

const keys = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, index) => `${prefix}${String(index).padStart(6, '0')}`);

describe('frequencySketch', () => {
  it('counts each key apart, up to 15', () => {
    const sketch = frequencySketch(1_000);
    for (let time = 0; time < 3; time += 1) sketch.add('01KR4RY474TFPM6HCMJ591B6QM');
    for (let time = 0; time < 40; time += 1) sketch.add('01KR4RY474TFPM6HCMJ591B6QN');
    expect(sketch.of('01KR4RY474TFPM6HCMJ591B6QM')).toBe(3);
    expect(sketch.of('01KR4RY474TFPM6HCMJ591B6QN')).toBe(15);
    expect(sketch.of('never asked for')).toBe(0);
  });

  it('tells many keys apart within its capacity', () => {
    const sketch = frequencySketch(1_000);
    const often = keys(500, 'often-');
    const once = keys(500, 'once-');
    for (const key of often) for (let time = 0; time < 4; time += 1) sketch.add(key);
    for (const key of once) sketch.add(key);
    // A count-min sketch may count a key high, never low.
    expect(often.every((key) => sketch.of(key) >= 4)).toBe(true);
    expect(once.filter((key) => sketch.of(key) === 1).length).toBeGreaterThan(480);
  });

  it('halves every count after ten times its capacity in additions', () => {
    const sketch = frequencySketch(10);
    for (let time = 0; time < 8; time += 1) sketch.add('popular');
    expect(sketch.of('popular')).toBe(8);
    // A hundred keys in a sketch for ten: some share every row with it and count for it too.
    for (const key of keys(91, 'other-')) sketch.add(key);
    const beforeHalving = sketch.of('popular');
    expect(beforeHalving).toBeGreaterThanOrEqual(8);
    sketch.add('one more');
    expect(sketch.of('popular')).toBe(beforeHalving >> 1);
  });
});
