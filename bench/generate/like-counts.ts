import { Prng } from '../lib/prng';
import type { FollowGraph } from './follows';
import type { Posts } from './posts';

const LIKES_PER_POST = 5;

/** Like counts per post: heavy-tailed, larger for popular authors. */
export function generateLikeCounts(seed: string, posts: Posts, follows: FollowGraph): Int32Array {
  const { postAuthor } = posts;
  const { followers } = follows;
  const P = postAuthor.length;
  const M = followers.length;
  const likeCount = new Int32Array(P);
  const prng = new Prng(seed, 'like-counts');
  const weight = new Float64Array(P);
  for (let i = 0; i < P; i++) {
    weight[i] = Math.pow((followers[postAuthor[i] ?? 0] ?? 0) + 5, 0.7) * prng.logNormal(1.4);
  }
  const cap = M - 1;
  let scale = 0;
  let wanted = LIKES_PER_POST * P;
  // Two passes: posts at the cap give their excess to the others.
  for (let pass = 0; pass < 2; pass++) {
    let free = 0;
    let capped = 0;
    for (let i = 0; i < P; i++) {
      const w = weight[i] ?? 0;
      if (scale > 0 && w * scale >= cap) capped++;
      else free += w;
    }
    wanted = LIKES_PER_POST * P - capped * cap;
    scale = wanted / free;
  }
  for (let i = 0; i < P; i++) {
    const exact = (weight[i] ?? 0) * scale;
    likeCount[i] = Math.min(cap, Math.floor(exact + prng.float()));
  }
  return likeCount;
}
