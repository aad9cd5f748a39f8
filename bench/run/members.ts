/** The members the load acts as, signed in, and what the instance holds before the run. */
import { readFileSync } from 'node:fs';
import { signIn, type RunCopy } from '../lib/copy';
import { countRows, secretFileOf } from '../lib/instance';
import type { Prng } from '../lib/prng';
import { createLoad } from '../scenarios';

export interface MemberRow {
  id: string;
  username: string;
  following_count: number;
}

export type PreparedMembers = Awaited<ReturnType<typeof prepareMembers>>;

/**
 * `memberCount` members drawn at random for the load, the most-followed member, and with
 * `signEveryone` (the Home check) every member, all signed in; what the load's members already
 * like and bookmark; and the instance's rows before the run.
 */
export async function prepareMembers(
  copy: RunCopy,
  prng: Prng,
  {
    memberCount,
    signEveryone,
    choose,
  }: {
    memberCount: number;
    signEveryone: boolean;
    /** Which members (indices into all, by id) the load acts as, instead of `memberCount` at random. */
    choose?: (all: readonly MemberRow[]) => number[];
  },
) {
  const runner = await copy.runner();
  try {
    const before = await countRows(runner);
    const allMembers = await runner.all<MemberRow>(
      'SELECT id, username, following_count FROM users ORDER BY id',
    );
    const postIds = (await runner.all<{ id: string }>('SELECT id FROM posts ORDER BY id')).map(
      (row) => row.id,
    );
    const [mostFollowed] = await runner.all<{ id: string }>(
      'SELECT id FROM users ORDER BY followers_count DESC, id LIMIT 1',
    );
    const celebrityIndex = allMembers.findIndex((member) => member.id === mostFollowed?.id);
    const secret = readFileSync(secretFileOf({ dataDir: copy.dataDir }), 'utf8').trim();
    const chosen = new Set<number>(choose?.(allMembers));
    while (!choose && chosen.size < Math.min(memberCount, allMembers.length)) {
      chosen.add(prng.int(allMembers.length));
    }
    const toSign = signEveryone
      ? allMembers.map((_, index) => index)
      : [...new Set([...chosen, celebrityIndex])].filter((index) => index >= 0);
    const signed = new Map(
      (
        await signIn(
          copy,
          secret,
          toSign.map((index) => {
            const { id, username } = allMembers[index] ?? { id: '', username: '' };
            return { index, id, username };
          }),
        )
      ).map((member) => [member.index, member]),
    );
    const members = [...chosen].map((index) => signed.get(index)).filter((m) => m !== undefined);
    const celebrity = signed.get(celebrityIndex);
    if (members.length === 0 || !celebrity) throw new Error('the instance has no members');

    const liked = new Set<string>();
    const bookmarked = new Set<string>();
    for (const member of members) {
      for (const row of await runner.all<{ post_id: string }>(
        'SELECT post_id FROM likes WHERE user_id = $1',
        [member.id],
      )) {
        liked.add(`${member.index}:${row.post_id}`);
      }
      for (const row of await runner.all<{ post_id: string }>(
        'SELECT post_id FROM bookmarks WHERE user_id = $1',
        [member.id],
      )) {
        bookmarked.add(`${member.index}:${row.post_id}`);
      }
    }
    return {
      before,
      secret,
      allMembers,
      postIds,
      members,
      celebrity,
      everyone: signEveryone ? [...signed.values()] : [],
      liked,
      bookmarked,
    };
  } finally {
    await runner.close();
  }
}

/**
 * For each following count asked, the member of `all` who follows the nearest number, each member
 * once: the load's members on a large instance matched to a small one's, so both read Homes over
 * as many followed members.
 */
export function matchFollowing(counts: readonly number[], all: readonly MemberRow[]): number[] {
  const byFollowing = all
    .map((member, index) => ({ index, following: member.following_count }))
    .sort((a, b) => a.following - b.following || a.index - b.index);
  const used = new Set<number>();
  const nearest = (count: number) => {
    let low = 0;
    let high = byFollowing.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((byFollowing[middle]?.following ?? 0) < count) low = middle + 1;
      else high = middle;
    }
    let left = low - 1;
    let right = low;
    while (used.has(left)) left -= 1;
    while (used.has(right)) right += 1;
    const below = byFollowing[left];
    const above = byFollowing[right];
    const take =
      below && (!above || count - below.following <= above.following - count) ? left : right;
    const taken = byFollowing[take];
    if (taken) {
      used.add(take);
      return taken.index;
    }
    return -1;
  };
  return counts.map(nearest).filter((index) => index >= 0);
}

/** The scenarios acted out by the prepared members (bench/scenarios.ts). */
export const loadFor = (prepared: PreparedMembers, prng: Prng) =>
  createLoad({
    prng,
    members: prepared.members,
    celebrity: prepared.celebrity,
    usernames: prepared.allMembers.map((member) => member.username),
    postIds: prepared.postIds,
    liked: prepared.liked,
    bookmarked: prepared.bookmarked,
  });
