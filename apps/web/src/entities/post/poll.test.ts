import type { Poll } from '@perch/contract';
import { describe, expect, it } from 'vitest';
import { withCounts } from './poll';

const poll: Poll = {
  id: 'poll-1',
  expiresAt: '2026-12-10T00:00:00.000Z',
  expired: false,
  multiple: false,
  votesCount: 1,
  votersCount: 1,
  options: [
    { title: 'Tea', votesCount: 1 },
    { title: 'Coffee', votesCount: 0 },
  ],
  voted: true,
  ownVotes: [0],
};

describe('live poll counts', () => {
  const counts = { votesCount: 3, votersCount: 3, optionVotes: [1, 2] };

  it('updates the totals and the counts the viewer already sees', () => {
    expect(withCounts(poll, counts)).toEqual({
      ...poll,
      votesCount: 3,
      votersCount: 3,
      options: [
        { title: 'Tea', votesCount: 1 },
        { title: 'Coffee', votesCount: 2 },
      ],
    });
  });

  it('keeps counts hidden from a viewer who has not voted', () => {
    const hidden: Poll = {
      ...poll,
      voted: false,
      ownVotes: [],
      options: poll.options.map((option) => ({ ...option, votesCount: null })),
    };
    const next = withCounts(hidden, counts);
    expect(next.votesCount).toBe(3);
    expect(next.options.map((option) => option.votesCount)).toEqual([null, null]);
  });
});
