import { ulid } from 'ulid';
import { Prng } from '../lib/prng';
import { sortTiedIds } from './tied-ids';
import { DAY, YEAR } from './time';

export interface Members {
  /** Join times (ms), ascending. */
  memberTime: Float64Array;
  /** ULIDs of the join times, in the same order. */
  memberIds: string[];
  /** Weight as a followee; 0 for celebrities, who are followed apart. */
  popularity: Float64Array;
  /** Weight as a post author. */
  activity: Float64Array;
  /** Weight as a liker or commenter. */
  engagement: Float64Array;
  celebrities: number[];
}

/** Members: join times, ids, and the weights that decide who is followed, posts and engages. */
export function generateMembers(seed: string, M: number, now: number): Members {
  const start = now - YEAR;
  const memberTime = new Float64Array(M);
  const memberIds: string[] = new Array<string>(M);
  const popularity = new Float64Array(M);
  const activity = new Float64Array(M);
  const engagement = new Float64Array(M);
  const celebrities: number[] = [];
  const prng = new Prng(seed, 'members');
  for (let i = 0; i < M; i++) memberTime[i] = Math.floor(start + prng.float() * (YEAR - 30 * DAY));
  memberTime.sort();
  for (let i = 0; i < M; i++) memberIds[i] = ulid(memberTime[i], prng.fn);
  sortTiedIds(memberIds, memberTime);
  // Over a random ranking, the top few are celebrities (followed by a third of everyone); the
  // others are drawn as followees by a power law of their rank.
  const rank = Array.from({ length: M }, (_, i) => i);
  for (let i = M - 1; i > 0; i--) {
    const j = prng.int(i + 1);
    [rank[i], rank[j]] = [rank[j] ?? 0, rank[i] ?? 0];
  }
  const celebrityCount = Math.max(1, Math.round(M / 1000));
  for (let i = 0; i < M; i++) {
    const r = rank[i] ?? 0;
    if (r < celebrityCount) celebrities.push(i);
    else popularity[i] = Math.pow(r - celebrityCount + 200, -1.3);
    activity[i] = prng.logNormal(1.1) * (r < M / 50 ? 3 : 1);
    engagement[i] = prng.logNormal(0.8);
  }
  return { memberTime, memberIds, popularity, activity, engagement, celebrities };
}
