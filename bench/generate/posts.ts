import { ulid } from 'ulid';
import { Prng, searchCumulative } from '../lib/prng';
import type { Members } from './members';
import { sortTiedIds } from './tied-ids';
import { YEAR } from './time';

export interface Posts {
  /** Creation times (ms), ascending. */
  postTime: Float64Array;
  /** Per post: the member who wrote it. */
  postAuthor: Int32Array;
  /** ULIDs of the creation times, in the same order. */
  postIds: string[];
  /** Per member: how many posts they wrote. */
  postsCount: Int32Array;
}

/** Posts: times, authors, ids. */
export function generatePosts(seed: string, P: number, now: number, members: Members): Posts {
  const { memberTime, activity } = members;
  const M = memberTime.length;
  const start = now - YEAR;
  const postTime = new Float64Array(P);
  const postAuthor = new Int32Array(P);
  const postIds: string[] = new Array<string>(P);
  const postsCount = new Int32Array(M);
  const prng = new Prng(seed, 'posts');
  const first = (memberTime[0] ?? start) + 3_600_000;
  // Activity grows with the community: density rises towards now.
  for (let i = 0; i < P; i++) {
    postTime[i] = Math.floor(first + (now - 60_000 - first) * Math.sqrt(prng.float()));
  }
  postTime.sort();
  const cumulative = new Float64Array(M);
  let sum = 0;
  for (let m = 0; m < M; m++) cumulative[m] = sum += activity[m] ?? 0;
  let joined = 0;
  for (let i = 0; i < P; i++) {
    const t = postTime[i] ?? 0;
    while (joined < M && (memberTime[joined] ?? 0) <= t) joined++;
    const author = searchCumulative(
      cumulative,
      prng.float() * (cumulative[joined - 1] ?? 0),
      joined,
    );
    postAuthor[i] = author;
    postsCount[author] = (postsCount[author] ?? 0) + 1;
    postIds[i] = ulid(t, prng.fn);
  }
  sortTiedIds(postIds, postTime);
  return { postTime, postAuthor, postIds, postsCount };
}
