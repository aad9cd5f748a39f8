import { describe, expect, it } from 'vitest';
import { matchFollowing, type MemberRow } from './members';

const member = (following: number): MemberRow => ({
  id: `id${following}`,
  username: `m${following}`,
  following_count: following,
});

describe('members matched by how many they follow', () => {
  it('takes the nearest following count, each member once', () => {
    const all = [50, 3, 20, 21, 200, 19, 48].map(member);
    // 20 → 20, 20 again → 21 or 19 (21 is as near; the lower wins ties), 49 → 48 or 50, 500 → 200.
    const chosen = matchFollowing([20, 20, 49, 500], all).map(
      (index) => all[index]?.following_count,
    );
    expect(chosen).toEqual([20, 19, 48, 200]);
  });

  it('stops when every member is taken', () => {
    const all = [5, 6].map(member);
    expect(matchFollowing([5, 5, 5], all)).toHaveLength(2);
  });
});
