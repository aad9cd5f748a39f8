/** Who reposted which post, and when: a share of each post's likers, drawn as its likes are. */
import { ulid } from 'ulid';
import { Prng } from '../lib/prng';
import { IntList } from './int-list';
import type { Sink } from '../lib/sink';
import type { Members } from './members';
import type { Posts } from './posts';
import { sortTiedIds } from './tied-ids';

const REPOSTS_PER_POST = 0.3;

/**
 * Repost counts per post: a share of its likes (never more), the share varying from post to post,
 * so reposts are as heavy-tailed as likes and land on the same posts.
 */
export function generateRepostCounts(seed: string, likeCount: Int32Array): Int32Array {
  const P = likeCount.length;
  const prng = new Prng(seed, 'repost-counts');
  const weight = new Float64Array(P);
  let sum = 0;
  for (let i = 0; i < P; i++) sum += weight[i] = (likeCount[i] ?? 0) * prng.logNormal(0.8);
  const scale = sum > 0 ? (REPOSTS_PER_POST * P) / sum : 0;
  const repostCount = new Int32Array(P);
  for (let i = 0; i < P; i++) {
    const exact = (weight[i] ?? 0) * scale;
    repostCount[i] = Math.min(likeCount[i] ?? 0, Math.floor(exact + prng.float()));
  }
  return repostCount;
}

/** The reposts drawn while the likes are written: post and member indexes, times (ms). */
export class RepostDraws {
  readonly post = new IntList();
  readonly member = new IntList();
  readonly time: number[] = [];
  private readonly prng: Prng;

  constructor(
    seed: string,
    private readonly now: number,
  ) {
    this.prng = new Prng(seed, 'reposts');
  }

  /**
   * `count` of the post's likers (the author never likes their own post) repost it, some time
   * after it was posted and they joined. Shuffles `likers` in place.
   */
  draw(
    post: number,
    postTime: number,
    likers: Int32Array,
    memberTime: Float64Array,
    count: number,
  ) {
    const n = Math.min(count, likers.length);
    for (let k = 0; k < n; k++) {
      const j = k + this.prng.int(likers.length - k);
      const m = likers[j] ?? 0;
      likers[j] = likers[k] ?? 0;
      likers[k] = m;
      const from = Math.max(postTime, memberTime[m] ?? 0);
      this.post.push(post);
      this.member.push(m);
      // Strictly after the post, so the repost's id sorts after the post's.
      this.time.push(from + 1 + Math.floor((this.now - from - 2) * Math.pow(this.prng.float(), 3)));
    }
  }
}

/** Writes the reposts in time order, each with a ULID of its time (ids ascend with the rows). */
export async function writeReposts(
  {
    sink,
    model,
    seed,
  }: {
    sink: Sink;
    model: { members: Pick<Members, 'memberIds'>; posts: Pick<Posts, 'postIds'> };
    seed: string;
  },
  draws: RepostDraws,
): Promise<number> {
  const { memberIds } = model.members;
  const { postIds } = model.posts;
  const n = draws.post.length;
  const order = Uint32Array.from({ length: n }, (_, k) => k).sort(
    (a, b) => (draws.time[a] ?? 0) - (draws.time[b] ?? 0) || a - b,
  );
  const times = Float64Array.from(order, (k) => draws.time[k] ?? 0);
  const prng = new Prng(seed, 'repost-ids');
  const ids = Array.from(times, (t) => ulid(t, prng.fn));
  sortTiedIds(ids, times);
  const w = sink.writer('reposts', [
    ['id', 'text'],
    ['post_id', 'text'],
    ['user_id', 'text'],
    ['created_at', 'int8'],
  ]);
  for (let j = 0; j < n; j++) {
    const k = order[j] ?? 0;
    const full = w.add(
      ids[j] ?? '',
      postIds[draws.post.data[k] ?? 0] ?? '',
      memberIds[draws.member.data[k] ?? 0] ?? '',
      times[j] ?? 0,
    );
    if (full) await w.flush();
  }
  return w.finish();
}
