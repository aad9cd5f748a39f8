import type { Poll } from '@perch/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { server } from '../../test/server';
import { json, makePost, mockFeeds, signInAsMe } from '../../entities/post/posts.mocks';
import { percentOf, pollSummary, timeLeft } from './pollText';

const HOUR = 3_600_000;

function makePoll(overrides: Partial<Poll> = {}): Poll {
  return {
    id: 'poll-1',
    expiresAt: new Date(Date.now() + 50 * HOUR).toISOString(),
    expired: false,
    multiple: false,
    votesCount: 3,
    votersCount: 3,
    options: [
      { title: 'Tea', votesCount: null },
      { title: 'Coffee', votesCount: null },
    ],
    voted: false,
    ownVotes: [],
    ...overrides,
  };
}

describe('a post with a poll', () => {
  it('offers radio buttons in a fieldset, and shows the results once the vote is counted', async () => {
    signInAsMe();
    const post = makePost({ content: 'Tea or coffee?', poll: makePoll() });
    mockFeeds({ home: [post] });
    const votes: unknown[] = [];
    server.use(
      http.post('/api/polls/poll-1/votes', async ({ request }) => {
        votes.push(await request.json());
        return json({
          poll: makePoll({
            votesCount: 4,
            votersCount: 4,
            voted: true,
            ownVotes: [1],
            options: [
              { title: 'Tea', votesCount: 1 },
              { title: 'Coffee', votesCount: 3 },
            ],
          }),
        });
      }),
    );
    const { user } = renderApp('/');
    const group = await screen.findByRole('group', { name: 'Poll: choose one' });
    const vote = screen.getByRole('button', { name: 'Vote' });
    expect(vote).toBeDisabled();
    expect(within(group).getAllByRole('radio')).toHaveLength(2);
    expect(screen.getByText('3 votes · 2 days left')).toBeInTheDocument();

    await user.click(within(group).getByRole('radio', { name: 'Coffee' }));
    await user.click(vote);

    const results = await screen.findByRole('list', { name: 'Poll results' });
    expect(votes).toEqual([{ choices: [1] }]);
    expect(
      within(results)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['25% Tea', '75% Coffee (your choice)']);
    expect(screen.queryByRole('button', { name: 'Vote' })).toBeNull();
    expect(screen.getByText('4 votes · 2 days left')).toBeInTheDocument();
  });

  it('offers checkboxes in a multiple-choice poll and says why a vote is refused', async () => {
    signInAsMe();
    mockFeeds({ home: [makePost({ poll: makePoll({ multiple: true, votersCount: 2 }) })] });
    server.use(
      http.post('/api/polls/poll-1/votes', () => json({ errors: ['This poll has ended.'] }, 400)),
    );
    const { user } = renderApp('/');
    const group = await screen.findByRole('group', { name: 'Poll: choose one or more' });
    await user.click(within(group).getByRole('checkbox', { name: 'Tea' }));
    await user.click(within(group).getByRole('checkbox', { name: 'Coffee' }));
    expect(screen.getByText('2 voters · 2 days left')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Vote' }));
    expect(await screen.findByText('This poll has ended.')).toBeInTheDocument();
    await waitFor(() => {
      expect(screen.getByRole('button', { name: 'Vote' })).toBeEnabled();
    });
  });

  it('shows an ended poll as results, Closed', async () => {
    signInAsMe();
    const ended = makePoll({
      expired: true,
      expiresAt: new Date(Date.now() - HOUR).toISOString(),
      options: [
        { title: 'Tea', votesCount: 3 },
        { title: 'Coffee', votesCount: 0 },
      ],
    });
    mockFeeds({ home: [makePost({ poll: ended })] });
    renderApp('/');
    const results = await screen.findByRole('list', { name: 'Poll results' });
    expect(
      within(results)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['100% Tea', '0% Coffee']);
    expect(screen.getByText('3 votes · Closed')).toBeInTheDocument();
  });
});

describe('poll wording', () => {
  it('says the time left in its largest unit, and shares in whole percent', () => {
    const now = Date.parse('2026-12-01T00:00:00Z');
    const at = (ms: number) => ({ expiresAt: new Date(now + ms).toISOString(), expired: false });
    expect(timeLeft(at(3 * 24 * HOUR), now)).toBe('3 days left');
    expect(timeLeft(at(HOUR + 5), now)).toBe('1 hour left');
    expect(timeLeft(at(90_000), now)).toBe('1 minute left');
    expect(timeLeft(at(-1), now)).toBe('Closed');
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(0, 0)).toBe(0);
    expect(
      pollSummary(
        makePoll({ votesCount: 1, expiresAt: new Date(now + 5 * HOUR).toISOString() }),
        now,
      ),
    ).toBe('1 vote · 5 hours left');
  });
});
