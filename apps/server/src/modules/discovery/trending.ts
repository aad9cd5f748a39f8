import { TRENDING_MEMBERS_MIN } from '@perch/contract';

export const TRENDING_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A member's use of a tag counts half as much after this long. */
const HALF_LIFE_MS = 6 * 60 * 60 * 1000;

export interface TagUseByMember {
  tag: string;
  author_id: string;
  last_at: number;
}

export interface TagTrend {
  tag: string;
  memberCount: number;
  score: number;
}

/**
 * Ranks tags by the members who used them in the window: each member adds one, decayed by how long
 * ago they last used the tag, however often they used it; so one member's posts never trend a tag.
 */
export function rankTrends(
  uses: readonly TagUseByMember[],
  now: number,
  limit: number,
): TagTrend[] {
  const latest = new Map<string, Map<string, number>>();
  for (const use of uses) {
    const members = latest.get(use.tag) ?? new Map<string, number>();
    if (members.size === 0) latest.set(use.tag, members);
    members.set(use.author_id, Math.max(members.get(use.author_id) ?? 0, use.last_at));
  }
  const trends: TagTrend[] = [];
  for (const [tag, members] of latest) {
    if (members.size < TRENDING_MEMBERS_MIN) continue;
    let score = 0;
    for (const at of members.values()) score += 0.5 ** (Math.max(0, now - at) / HALF_LIFE_MS);
    trends.push({ tag, memberCount: members.size, score });
  }
  trends.sort(
    (a, b) => b.score - a.score || b.memberCount - a.memberCount || (a.tag < b.tag ? -1 : 1),
  );
  return trends.slice(0, limit);
}
