import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../factories';
import { createMembers } from '../social/social-helpers';
import { createListeningApp, type ListeningApp } from './mastodon-helpers';

describe('Mastodon polls', () => {
  let t: ListeningApp;
  let ana: Member;
  let ben: Member;
  let cy: Member;

  beforeAll(async () => {
    t = await createListeningApp();
    [ana, ben, cy] = await createMembers(t.app, 3);
  });
  afterAll(() => t.close());

  const pollOf = async (multiple = false) => {
    const status = await t.client(ana.token).v1.statuses.create({
      status: 'Which bird?',
      poll: { options: ['kite', 'owl', 'wren'], expiresIn: 3600, multiple },
    });
    if (!status.poll) throw new Error('no poll');
    return status.poll;
  };

  it('votes, then shows the vote and the counts', async () => {
    const poll = await pollOf();
    const voted = await t
      .client(ben.token)
      .v1.polls.$select(poll.id)
      .votes.create({
        choices: [1],
      });
    expect(voted).toMatchObject({
      id: poll.id,
      voted: true,
      ownVotes: [1],
      votesCount: 1,
      votersCount: 1,
      expired: false,
    });
    expect(voted.options.map((option) => option.votesCount)).toEqual([0, 1, 0]);

    const seen = await t.client(cy.token).v1.polls.$select(poll.id).fetch();
    expect(seen).toMatchObject({ voted: false, ownVotes: [], votesCount: 1 });
    const anonymous = await fetch(`${t.url}/api/v1/polls/${poll.id}`);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).not.toHaveProperty('voted');
  });

  it('refuses a second vote with 422 and Perch’s words', async () => {
    const poll = await pollOf();
    await t
      .client(ben.token)
      .v1.polls.$select(poll.id)
      .votes.create({ choices: [0] });
    const again = await fetch(`${t.url}/api/v1/polls/${poll.id}/votes`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ben.token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'choices[]=2',
    });
    expect(again.status).toBe(422);
    expect(await again.json()).toEqual({
      error: 'Validation failed: You have already voted in this poll.',
    });
    const seen = await t.client(ben.token).v1.polls.$select(poll.id).fetch();
    expect(seen.ownVotes).toEqual([0]);
  });

  it('takes several choices from a form in a multiple-choice poll', async () => {
    const poll = await pollOf(true);
    const response = await fetch(`${t.url}/api/v1/polls/${poll.id}/votes`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${cy.token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'choices[]=0&choices[]=2',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ own_votes: [0, 2], votes_count: 2 });
  });

  it('answers 404 for an unknown poll and 422 for a choice it does not have', async () => {
    const missing = await fetch(`${t.url}/api/v1/polls/00000000000000000000000000`);
    expect(missing.status).toBe(404);
    const poll = await pollOf();
    const bad = await fetch(`${t.url}/api/v1/polls/${poll.id}/votes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cy.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ choices: [7] }),
    });
    expect(bad.status).toBe(422);
  });
});
