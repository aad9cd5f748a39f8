import { decodeTime } from 'ulid';
import { describe, expect, it } from 'vitest';
import type { Sink, Value } from '../lib/sink';
import { DAY } from './time';
import { writeLikes } from './engagement';
import { generateModel } from './model';
import { writeReposts } from './reposts';

/** A sink that keeps every row in memory, by table. */
function memorySink(): { sink: Sink; rows: Map<string, Value[][]> } {
  const rows = new Map<string, Value[][]>();
  const sink: Sink = {
    writer(table) {
      const kept: Value[][] = [];
      rows.set(table, kept);
      return {
        add: (...values) => kept.push(values) < 0,
        flush: () => Promise.resolve(),
        finish: () => Promise.resolve(kept.length),
      };
    },
  };
  return { sink, rows };
}

describe('generated reposts', () => {
  const now = 1_780_000_000_000 - (1_780_000_000_000 % DAY);
  const P = 5_000;
  const model = generateModel('test', P, 50, now);

  it('are about 0.3 a post, never more than its likes, on fewer posts than likes are', () => {
    const { likeCount, repostCount } = model;
    let reposts = 0;
    let reposted = 0;
    let liked = 0;
    for (let i = 0; i < P; i++) {
      expect(repostCount[i]).toBeLessThanOrEqual(likeCount[i] ?? 0);
      reposts += repostCount[i] ?? 0;
      if ((repostCount[i] ?? 0) > 0) reposted++;
      if ((likeCount[i] ?? 0) > 0) liked++;
    }
    expect(reposts / P).toBeGreaterThan(0.25);
    expect(reposts / P).toBeLessThan(0.35);
    expect(reposted).toBeLessThan(liked);
  });

  it("are by the post's likers, after the post and the reposter's arrival, with ids of their time", async () => {
    const { sink, rows } = memorySink();
    const input = { sink, model, seed: 'test', now };
    const { reposts } = await writeLikes(input);
    const written = await writeReposts(input, reposts);
    const { memberIds, memberTime } = model.members;
    const { postIds, postTime, postAuthor } = model.posts;
    const postIndex = new Map(postIds.map((id, i) => [id, i]));
    const memberIndex = new Map(memberIds.map((id, m) => [id, m]));
    const likes = new Set((rows.get('likes') ?? []).map(([post, member]) => `${post} ${member}`));
    const perPost = new Int32Array(P);
    const pairs = new Set<string>();
    let previous = '';
    for (const [id, postId, userId, createdAt] of rows.get('reposts') ?? []) {
      const i = postIndex.get(String(postId)) ?? -1;
      const m = memberIndex.get(String(userId)) ?? -1;
      expect(likes.has(`${postId} ${userId}`)).toBe(true);
      expect(m).not.toBe(postAuthor[i]);
      expect(createdAt).toBeGreaterThan(postTime[i] ?? Infinity);
      expect(createdAt).toBeGreaterThanOrEqual(memberTime[m] ?? Infinity);
      expect(createdAt).toBeLessThan(now);
      expect(decodeTime(String(id))).toBe(createdAt);
      expect(String(id) > previous).toBe(true);
      previous = String(id);
      pairs.add(`${postId} ${userId}`);
      perPost[i] = (perPost[i] ?? 0) + 1;
    }
    expect(written).toBeGreaterThan(0);
    expect(pairs.size).toBe(written);
    expect(Array.from(perPost)).toEqual(Array.from(model.repostCount));
  });
});
