import type { AliasTable, Prng } from '../lib/prng';

/** Chooses `count` distinct members other than `exclude`, by weight when sparse, uniformly when dense. */
export function chooseMembers(
  prng: Prng,
  table: AliasTable,
  members: number,
  count: number,
  exclude: number,
  stamp: Int32Array,
  mark: number,
  out: Int32Array,
): Int32Array {
  stamp[exclude] = mark;
  let n = 0;
  if (count * 3 < members) {
    let attempts = count * 30;
    while (n < count && attempts-- > 0) {
      const m = table.draw(prng);
      if (stamp[m] !== mark) {
        stamp[m] = mark;
        out[n++] = m;
      }
    }
  }
  if (n < count) {
    // Dense or unlucky: fill uniformly from the members not chosen yet.
    const rest: number[] = [];
    for (let m = 0; m < members; m++) if (stamp[m] !== mark) rest.push(m);
    for (let i = 0; n < count && i < rest.length; i++) {
      const j = i + prng.int(rest.length - i);
      const picked = rest[j] ?? 0;
      rest[j] = rest[i] ?? 0;
      rest[i] = picked;
      stamp[picked] = mark;
      out[n++] = picked;
    }
  }
  return out.subarray(0, n).sort();
}
