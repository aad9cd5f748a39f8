import {
  PollMessages,
  pollResponseSchema,
  postMutationResponseSchema,
  postPageSchema,
  type Post,
} from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  counterMismatches,
  deleteOwnAccount,
  jsonOf,
  NO_MISMATCH,
  unzip,
} from '../account/account-helpers';
import { lastOutboxId, outboxAfter } from '../events/event-helpers';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import { groupsOf } from '../notifications/notification-helpers';
import { readPage, textOf } from '../pages/pages-helpers';
import { block, mute } from '../safety/safety-helpers';
import {
  MINIMAL,
  UNKNOWN_ID,
  bodyOf,
  createMembers,
  expectError,
  fetchPost,
  postRequest,
  uploadImage,
} from './social-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const HOUR = 3600;
const poll = (overrides: Record<string, unknown> = {}) => ({
  options: ['Tea', 'Coffee', 'Water'],
  expiresIn: HOUR,
  ...overrides,
});

async function pollPost(member: Member, overrides: Record<string, unknown> = {}): Promise<Post> {
  const response = await postRequest(
    t.app,
    member.token,
    { content: 'What do you drink?', poll: poll(overrides) },
    MINIMAL,
  );
  return bodyOf(postMutationResponseSchema, response, 201).post;
}

const pollIdOf = (post: Post): string => {
  if (!post.poll) throw new Error('the post has no poll');
  return post.poll.id;
};

const voteRequest = (member: Member, pollId: string, choices: unknown) =>
  call(t.app, {
    method: 'POST',
    url: `/api/polls/${pollId}/votes`,
    token: member.token,
    payload: { choices },
  });

async function vote(member: Member, pollId: string, choices: number[]) {
  return bodyOf(pollResponseSchema, await voteRequest(member, pollId, choices), 200).poll;
}

const openPoll = async (pollId: string, member?: Member) =>
  bodyOf(
    pollResponseSchema,
    await call(t.app, { method: 'GET', url: `/api/polls/${pollId}`, token: member?.token }),
    200,
  ).poll;

/** Moves the poll's end into the past, as time passing would. */
async function expire(post: Post): Promise<void> {
  const past = Date.now() - 1000;
  const row = await t.app.db
    .selectFrom('posts')
    .select('poll')
    .where('id', '=', post._id)
    .executeTakeFirstOrThrow();
  const data = { ...(JSON.parse(row.poll ?? 'null') as object), expiresAt: past };
  await t.app.db
    .updateTable('posts')
    .set({ poll: JSON.stringify(data) })
    .where('id', '=', post._id)
    .execute();
  await t.app.db
    .updateTable('polls')
    .set({ expires_at: past })
    .where('post_id', '=', post._id)
    .execute();
  t.app.services.posts.changed(post._id);
}

describe('creating a post with a poll', () => {
  it('shows the poll on the post: counts to its author, hidden from others until they vote', async () => {
    const [author, reader] = await createMembers(t.app, 2);
    const before = Date.now();
    const post = await pollPost(author, { multiple: true });
    expect(post.poll).toMatchObject({
      expired: false,
      multiple: true,
      votesCount: 0,
      votersCount: 0,
      voted: false,
      ownVotes: [],
      options: [
        { title: 'Tea', votesCount: 0 },
        { title: 'Coffee', votesCount: 0 },
        { title: 'Water', votesCount: 0 },
      ],
    });
    const expiresAt = Date.parse(post.poll?.expiresAt ?? '');
    expect(expiresAt).toBeGreaterThanOrEqual(before + HOUR * 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + HOUR * 1000);

    const seen = await fetchPost(t.app, post._id, reader.token);
    expect(seen.poll?.options.map((option) => option.votesCount)).toEqual([null, null, null]);
    expect((await fetchPost(t.app, post._id)).poll?.voted).toBe(false);
    expect((await fetchPost(t.app, post._id, author.token)).poll?.options[0]?.votesCount).toBe(0);
    expect(await openPoll(pollIdOf(post), reader)).toEqual(seen.poll);
  });

  it('refuses polls out of limits, each with its reason', async () => {
    const author = await createMember(t.app);
    const cases: [Record<string, unknown>, string][] = [
      [{ options: ['Only one'] }, PollMessages.optionCount],
      [{ options: ['a', 'b', 'c', 'd', 'e'] }, PollMessages.optionCount],
      [{ options: ['a', 'x'.repeat(51)] }, PollMessages.optionLength],
      [{ options: ['a', '   '] }, PollMessages.optionLength],
      [{ options: ['Same', ' Same '] }, PollMessages.optionsDistinct],
      [{ expiresIn: 299 }, PollMessages.expiresIn],
      [{ expiresIn: 604_801 }, PollMessages.expiresIn],
      [{ expiresIn: 'soon' }, PollMessages.expiresIn],
    ];
    for (const [overrides, message] of cases) {
      const response = await postRequest(t.app, author.token, {
        content: 'a poll',
        poll: poll(overrides),
      });
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json<{ errors: string[] }>().errors.join(' ')).toContain(message);
    }
    const fifty = await postRequest(t.app, author.token, {
      content: 'a poll',
      poll: poll({ options: ['a', 'x'.repeat(50)], expiresIn: 300 }),
    });
    expect(fifty.statusCode, fifty.body).toBe(201);
    const rows = await t.app.db
      .selectFrom('posts')
      .select('id')
      .where('user_id', '=', author.user._id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses a poll with an image, and an image added to a poll later', async () => {
    const author = await createMember(t.app);
    const image = await uploadImage(t.app, author.token);
    const both = await postRequest(t.app, author.token, {
      content: 'both',
      mediaURL: image,
      poll: poll(),
    });
    expect(both.statusCode).toBe(400);
    expect(both.json<{ errors: string[] }>().errors.join(' ')).toContain(
      PollMessages.pollWithImage,
    );

    const post = await pollPost(author);
    const edit = (postData: Record<string, unknown>) =>
      call(t.app, {
        method: 'POST',
        url: `/api/posts/edit/${post._id}`,
        token: author.token,
        payload: { postData },
        headers: MINIMAL,
      });
    expectError(await edit({ mediaURL: image }), 400, PollMessages.pollWithImage);
    // An edit of the text keeps the poll as it was posted; a poll sent along is ignored.
    const edited = bodyOf(
      postMutationResponseSchema,
      await edit({ content: 'Still asking', poll: { options: ['x', 'y'], expiresIn: 300 } }),
      201,
    ).post;
    expect(edited.content).toBe('Still asking');
    expect(edited.poll?.id).toBe(post.poll?.id);
    expect(edited.poll?.options.map((option) => option.title)).toEqual(['Tea', 'Coffee', 'Water']);
  });
});

describe('POST /api/polls/{pollId}/votes', () => {
  it('counts a vote once and shows the voter the results, in lists too', async () => {
    const [author, voter, other] = await createMembers(t.app, 3);
    const post = await pollPost(author);
    const id = pollIdOf(post);
    const answer = await vote(voter, id, [1]);
    expect(answer).toMatchObject({ voted: true, ownVotes: [1], votesCount: 1, votersCount: 1 });
    expect(answer.options.map((option) => option.votesCount)).toEqual([0, 1, 0]);

    expectError(await voteRequest(voter, id, [0]), 400, PollMessages.alreadyVoted);
    const list = bodyOf(
      postPageSchema,
      await call(t.app, {
        method: 'GET',
        url: `/api/posts/user/${author.user.username}`,
        token: voter.token,
        headers: MINIMAL,
      }),
      200,
    ).posts;
    expect(list.find((item) => item._id === post._id)?.poll).toEqual(answer);
    // Others see the totals but not the options' counts until they vote.
    const seen = (await fetchPost(t.app, post._id, other.token)).poll;
    expect(seen).toMatchObject({ votesCount: 1, votersCount: 1, voted: false, ownVotes: [] });
    expect(seen?.options.map((option) => option.votesCount)).toEqual([null, null, null]);
    // The author sees the counts, and may vote too (as on Mastodon).
    expect((await fetchPost(t.app, post._id, author.token)).poll?.options[1]?.votesCount).toBe(1);
    expect((await vote(author, id, [2])).votersCount).toBe(2);
  });

  it('takes several choices in a multiple-choice poll, one in a single-choice poll', async () => {
    const [author, voter] = await createMembers(t.app, 2);
    const multiple = pollIdOf(await pollPost(author, { multiple: true }));
    const answer = await vote(voter, multiple, [2, 0]);
    expect(answer).toMatchObject({ ownVotes: [0, 2], votesCount: 2, votersCount: 1 });
    expect(answer.options.map((option) => option.votesCount)).toEqual([1, 0, 1]);

    const single = pollIdOf(await pollPost(author));
    expectError(await voteRequest(voter, single, [0, 1]), 400, PollMessages.oneChoice);
    expectError(await voteRequest(voter, single, [3]), 400, PollMessages.badChoice);
    expectError(await voteRequest(voter, single, [-1]), 400, PollMessages.badChoice);
    expectError(await voteRequest(voter, single, []), 400, PollMessages.noChoice);
    expectError(await voteRequest(voter, multiple, [1, 1]), 400, PollMessages.duplicateChoice);
    expect((await voteRequest(voter, single, 'first')).statusCode).toBe(400);
    const votes = await t.app.db
      .selectFrom('poll_votes')
      .select('position')
      .where('poll_id', '=', single)
      .execute();
    expect(votes).toEqual([]);
  });

  it('refuses unknown polls, ended polls, visitors and members the author blocked', async () => {
    const [author, voter, blocked] = await createMembers(t.app, 3);
    expectError(await voteRequest(voter, UNKNOWN_ID, [0]), 404, PollMessages.notFound);
    const post = await pollPost(author);
    const id = pollIdOf(post);
    const visitor = await call(t.app, {
      method: 'POST',
      url: `/api/polls/${id}/votes`,
      payload: { choices: [0] },
    });
    expect(visitor.statusCode).toBe(401);

    await block(t.app, author, blocked);
    expect((await voteRequest(blocked, id, [0])).statusCode).toBe(404);
    expect(
      (await call(t.app, { method: 'GET', url: `/api/polls/${id}`, token: blocked.token }))
        .statusCode,
    ).toBe(404);

    await expire(post);
    expectError(await voteRequest(voter, id, [0]), 400, PollMessages.ended);
    const ended = await openPoll(id, voter);
    expect(ended.expired).toBe(true);
    // Once ended, everyone sees the results.
    expect(ended.options.map((option) => option.votesCount)).toEqual([0, 0, 0]);
  });

  it('counts votes made at once exactly', async () => {
    const author = await createMember(t.app);
    const voters = await createMembers(t.app, 20);
    const post = await pollPost(author, { multiple: true });
    const id = pollIdOf(post);
    const answers = await Promise.all(
      voters.map((member, i) => voteRequest(member, id, i % 2 === 0 ? [0, 1] : [2])),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const seen = await openPoll(id, author);
    expect(seen.votersCount).toBe(20);
    expect(seen.votesCount).toBe(30);
    expect(seen.options.map((option) => option.votesCount)).toEqual([10, 10, 10]);
    const stored = await t.app.db
      .selectFrom('poll_options')
      .select('votes_count')
      .where('poll_id', '=', id)
      .orderBy('position')
      .execute();
    expect(stored.map((row) => row.votes_count)).toEqual([10, 10, 10]);
    const voted = await t.app.db
      .selectFrom('poll_voters')
      .select('user_id')
      .where('poll_id', '=', id)
      .execute();
    expect(voted).toHaveLength(20);
  });
});

describe("a voter's account deleted", () => {
  it('takes their votes out of the counts, keeps the others, and tells open pages', async () => {
    const [author, stays, leaves] = await createMembers(t.app, 3);
    const post = await pollPost(author, { multiple: true });
    const id = pollIdOf(post);
    await vote(stays, id, [0]);
    await vote(leaves, id, [0, 2]);
    const ownPost = await pollPost(leaves);
    await vote(stays, pollIdOf(ownPost), [1]);
    const after = await lastOutboxId(t.app);

    expect((await deleteOwnAccount(t.app, leaves)).statusCode).toBeLessThan(300);
    const seen = await openPoll(id, author);
    expect(seen.votersCount).toBe(1);
    expect(seen.votesCount).toBe(1);
    expect(seen.options.map((option) => option.votesCount)).toEqual([1, 0, 0]);
    expect((await fetchPost(t.app, post._id, author.token)).poll?.votersCount).toBe(1);
    const told = (await outboxAfter(t.app, after)).filter((event) => event.type === 'poll.voted');
    expect(told.map((event) => event.payload)).toEqual([
      {
        pollId: id,
        postId: post._id,
        authorId: author.user._id,
        votesCount: 1,
        votersCount: 1,
        optionVotes: [1, 0, 0],
      },
    ]);
    expect(await counterMismatches(t.app.db)).toEqual(NO_MISMATCH);
  });
});

describe('the closing job', () => {
  it('tells the author and the voters once, even when two runs race', async () => {
    const [author, voter, muting, late] = await createMembers(t.app, 4);
    const post = await pollPost(author);
    const id = pollIdOf(post);
    await vote(voter, id, [0]);
    await vote(muting, id, [1]);
    await mute(t.app, muting, author);
    const open = await pollPost(late);
    // Polls other tests ended are closed first.
    await t.app.services.polls.closeEnded();
    await expire(post);
    const after = await lastOutboxId(t.app);

    const runs = await Promise.all([
      t.app.services.polls.closeEnded(),
      t.app.services.polls.closeEnded(),
    ]);
    expect(runs[0] + runs[1]).toBe(1);
    expect(await t.app.services.polls.closeEnded()).toBe(0);
    const ended = (await outboxAfter(t.app, after)).filter((event) => event.type === 'poll.ended');
    expect(ended.map((event) => event.payload)).toEqual([
      { pollId: id, postId: post._id, authorId: author.user._id },
    ]);

    const pollNotice = async (member: Member) =>
      (await groupsOf(t.app, member)).filter((group) => group.kind === 'poll');
    for (const member of [author, voter]) {
      const notices = await pollNotice(member);
      expect(notices).toHaveLength(1);
      expect(notices[0]?.post?._id).toBe(post._id);
      expect(notices[0]?.actors.map((actor) => actor._id)).toEqual([author.user._id]);
    }
    // A voter who muted the author is not told; a poll still open is not closed.
    expect(await pollNotice(muting)).toEqual([]);
    expect(await pollNotice(late)).toEqual([]);
    expect((await openPoll(pollIdOf(open))).expired).toBe(false);
  });
});

describe('the export', () => {
  it("holds the member's polls with their counts, and the votes they cast", async () => {
    const [author, voter] = await createMembers(t.app, 2);
    const post = await pollPost(author, { multiple: true });
    const id = pollIdOf(post);
    await vote(voter, id, [0, 2]);
    await vote(author, id, [1]);
    const download = async (member: Member) => {
      const response = await call(t.app, {
        method: 'GET',
        url: '/api/users/me/export',
        token: member.token,
      });
      expect(response.statusCode).toBe(200);
      return unzip(response.rawPayload);
    };
    const authorFiles = await download(author);
    const [exported] = jsonOf(authorFiles, 'posts.json') as { poll: unknown }[];
    expect(exported?.poll).toEqual({
      id,
      multiple: true,
      expiresAt: post.poll?.expiresAt,
      votersCount: 2,
      options: [
        { title: 'Tea', votesCount: 1 },
        { title: 'Coffee', votesCount: 1 },
        { title: 'Water', votesCount: 1 },
      ],
    });
    const votes = jsonOf(await download(voter), 'poll-votes.json') as Record<string, unknown>[];
    expect(votes).toEqual([
      { pollId: id, postId: post._id, votedAt: expect.any(String) as string, choices: [0, 2] },
    ]);
    expect(jsonOf(authorFiles, 'poll-votes.json')).toMatchObject([{ pollId: id, choices: [1] }]);
  });
});

describe('the public page of a post with a poll', () => {
  it('shows the options, and their results once the poll ended', async () => {
    const [author, voter] = await createMembers(t.app, 2);
    const post = await pollPost(author);
    await vote(voter, pollIdOf(post), [1]);
    const url = `/@${author.user.username}/${post._id}`;
    const options = async () => {
      const { document } = await readPage(t.app, url);
      return {
        items: document.querySelectorAll('.public-poll li').map((li) => textOf(li)),
        meta: textOf(document.querySelector('.public-poll-meta')),
      };
    };
    const open = await options();
    expect(open.items).toEqual(['Tea', 'Coffee', 'Water']);
    expect(open.meta).toMatch(/^1 voter · Ends /);

    await expire(post);
    const ended = await options();
    expect(ended.items).toEqual(['0% Tea', '100% Coffee', '0% Water']);
    expect(ended.meta).toBe('1 voter · Closed');
  });
});
