import { AliasTable, Prng } from '../lib/prng';
import { chooseMembers } from './choose-members';
import { IntList } from './int-list';
import type { Members } from './members';

export interface FollowGraph {
  /** Member f follows followees.data[followOffsets[f]] up to followOffsets[f + 1], ascending. */
  followOffsets: Int32Array;
  followees: IntList;
  /** Per member: how many follow them. */
  followers: Int32Array;
  /** Per member: how many they follow. */
  following: Int32Array;
}

/** Whom each member follows: each celebrity by a one-in-three chance, the others by popularity. */
export function generateFollowGraph(seed: string, members: Members): FollowGraph {
  const { popularity, celebrities } = members;
  const M = popularity.length;
  const followers = new Int32Array(M);
  const following = new Int32Array(M);
  const followOffsets = new Int32Array(M + 1);
  const followees = new IntList();
  const prng = new Prng(seed, 'follows');
  const table = new AliasTable(popularity);
  const stamp = new Int32Array(M).fill(-1);
  const out = new Int32Array(M);
  for (let f = 0; f < M; f++) {
    const r = prng.float();
    let target =
      r < 0.1
        ? prng.int(20)
        : r < 0.95
          ? Math.floor(20 * Math.pow(10, prng.float()))
          : Math.floor(200 * Math.pow(5, prng.float()));
    target = Math.min(target, M - 1);
    stamp[f] = f;
    let n = 0;
    for (const c of celebrities) {
      if (c !== f && prng.chance(1 / 3)) {
        stamp[c] = f;
        out[n++] = c;
      }
    }
    const rest = chooseMembers(
      prng,
      table,
      M,
      Math.max(0, target - n),
      f,
      stamp,
      f,
      out.subarray(n),
    );
    const chosen = out.subarray(0, n + rest.length).sort();
    followOffsets[f] = followees.length;
    for (const e of chosen) {
      followees.push(e);
      followers[e] = (followers[e] ?? 0) + 1;
    }
    following[f] = chosen.length;
  }
  followOffsets[M] = followees.length;
  return { followOffsets, followees, followers, following };
}
