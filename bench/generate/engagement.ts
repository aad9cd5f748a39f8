/** Who liked and bookmarked which post, and when: drawn while the rows are written. */
import { AliasTable, Prng, searchCumulative } from '../lib/prng';
import { chooseMembers } from './choose-members';
import type { LoadInput } from './model';
import { RepostDraws } from './reposts';

const BOOKMARKS_PER_POST = 0.5;

/** Writes the likes; answers their number and the reposts, drawn among each post's likers. */
export async function writeLikes({
  sink,
  model,
  seed,
  now,
}: LoadInput): Promise<{ rows: number; reposts: RepostDraws }> {
  const { memberIds, memberTime, engagement } = model.members;
  const { postTime, postAuthor, postIds } = model.posts;
  const { likeCount, repostCount } = model;
  const reposts = new RepostDraws(seed, now);
  const M = memberIds.length;
  const P = postIds.length;
  const prng = new Prng(seed, 'likes');
  const table = new AliasTable(engagement);
  const stamp = new Int32Array(M).fill(-1);
  const out = new Int32Array(M);
  const w = sink.writer('likes', [
    ['post_id', 'text'],
    ['user_id', 'text'],
    ['created_at', 'int8'],
  ]);
  for (let i = 0; i < P; i++) {
    const count = likeCount[i] ?? 0;
    if (count === 0) continue;
    const likers = chooseMembers(prng, table, M, count, postAuthor[i] ?? 0, stamp, i, out);
    const postId = postIds[i] ?? '';
    const t = postTime[i] ?? 0;
    for (const m of likers) {
      const from = Math.max(t, memberTime[m] ?? 0);
      const at = Math.floor(from + (now - from) * Math.pow(prng.float(), 4));
      if (w.add(postId, memberIds[m] ?? '', at)) await w.flush();
    }
    reposts.draw(i, t, likers, memberTime, repostCount[i] ?? 0);
  }
  return { rows: await w.finish(), reposts };
}

export async function writeBookmarks({ sink, model, seed, now }: LoadInput): Promise<number> {
  const { memberIds, memberTime } = model.members;
  const { postTime, postIds } = model.posts;
  const { likeCount } = model;
  const M = memberIds.length;
  const P = postIds.length;
  const prng = new Prng(seed, 'bookmarks');
  const cumulative = new Float64Array(P);
  let sum = 0;
  for (let i = 0; i < P; i++) cumulative[i] = sum += (likeCount[i] ?? 0) + 1;
  const appetite = Float64Array.from({ length: M }, () => prng.logNormal(1.2));
  let appetiteSum = 0;
  for (const a of appetite) appetiteSum += a;
  const scale = (BOOKMARKS_PER_POST * P) / appetiteSum;
  const w = sink.writer('bookmarks', [
    ['user_id', 'text'],
    ['post_id', 'text'],
    ['created_at', 'int8'],
  ]);
  for (let m = 0; m < M; m++) {
    const count = Math.min(
      Math.floor(P / 2),
      Math.floor((appetite[m] ?? 0) * scale + prng.float()),
    );
    const chosen = new Set<number>();
    while (chosen.size < count) chosen.add(searchCumulative(cumulative, prng.float() * sum));
    const memberId = memberIds[m] ?? '';
    for (const i of Int32Array.from(chosen).sort()) {
      const from = Math.max(postTime[i] ?? 0, memberTime[m] ?? 0);
      const at = Math.floor(from + (now - from) * prng.float());
      if (w.add(memberId, postIds[i] ?? '', at)) await w.flush();
    }
  }
  return w.finish();
}
