import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drain } from '../events/event-helpers';
import { createMember, type Member } from '../factories';
import { createTestApp, type TestApp } from '../helpers';
import {
  MINIMAL,
  addComment,
  bookmark,
  commentRequest,
  createMembers,
  createPost,
  downvote,
  follow,
  like,
  pause,
  postRequest,
  upvote,
} from '../social/social-helpers';
import {
  NOTHING_LEFT,
  NO_MISMATCH,
  NO_ORPHANS,
  counterMismatches,
  deleteOwnAccount,
  orphanRows,
  rowsOfMember,
} from './account-helpers';

let t: TestApp;
let others: Member[];
beforeAll(async () => {
  t = await createTestApp();
  others = await createMembers(t.app, 6);
});
afterAll(async () => {
  await t.close();
});

/** What a write racing the deletion may answer: done before it, or refused after it. */
const ALLOWED = new Set([200, 201, 204, 400, 401, 404]);

interface Answer {
  statusCode: number;
  body: string;
}

/** The item at `index`, which the test made sure is there. */
function nth<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`no item at ${index}`);
  return item;
}

const idOfCreated = (answer: Answer, key: 'post' | 'comment'): string[] => {
  if (answer.statusCode !== 201) return [];
  const body = JSON.parse(answer.body) as Record<string, { _id: string } | undefined>;
  const created = body[key];
  return created ? [created._id] : [];
};

describe('deleting an account while it and others keep writing', () => {
  it('leaves no row of the member and every count equal to its rows', async () => {
    for (let round = 0; round < 4; round += 1) {
      const member = await createMember(t.app);
      const mine = [
        await createPost(t.app, member.token, `#race${round} #shared first`),
        await createPost(t.app, member.token, `#shared second @${nth(others, 0).user.username}`),
      ];
      const theirs = await Promise.all(
        others.slice(0, 3).map((other, i) => createPost(t.app, other.token, `#shared other ${i}`)),
      );
      const theirComments = await Promise.all(
        others.map((other, i) =>
          addComment(t.app, other.token, nth(theirs, i % 3)._id, `note ${i}`),
        ),
      );
      for (const other of others.slice(0, 3)) {
        await follow(t.app, member.token, other.user._id, MINIMAL);
        await follow(t.app, other.token, member.user._id, MINIMAL);
      }
      await like(t.app, member.token, nth(theirs, 0)._id, MINIMAL);

      // Each write starts a little after the one before, over about 150 ms; the deletion starts
      // among them, later each round, so that writes land before, during and after it.
      let slot = 0;
      const later = (write: () => Promise<Answer>): Promise<Answer> =>
        pause((slot++ % 30) * 5).then(write);
      const ownPosts = Array.from({ length: 4 }, (_, i) =>
        later(() =>
          postRequest(t.app, member.token, { content: `#race${round} racing post ${i}` }, MINIMAL),
        ),
      );
      const ownComments = [
        ...theirs.map((post) =>
          later(() => commentRequest(t.app, member.token, post._id, '#late hi', MINIMAL)),
        ),
        ...mine.map((post) =>
          later(() => commentRequest(t.app, member.token, post._id, 'self', MINIMAL)),
        ),
      ];
      // Votes on the member's comments while they go.
      const memberComment = await addComment(t.app, member.token, nth(theirs, 1)._id, 'voted on');
      const own: Promise<Answer>[] = [
        ...ownPosts,
        ...ownComments,
        ...theirs.map((post) => later(() => like(t.app, member.token, post._id, MINIMAL))),
        ...theirs.map((post) => later(() => bookmark(t.app, member.token, post._id, MINIMAL))),
        ...theirComments
          .slice(0, 3)
          .map((comment) =>
            later(() => upvote(t.app, member.token, comment.postId, comment._id, MINIMAL)),
          ),
        later(() => follow(t.app, member.token, nth(others, 4).user._id, MINIMAL)),
      ];
      const fromOthers: Promise<Answer>[] = others.flatMap((other, i) => [
        ...mine.map((post) => later(() => like(t.app, other.token, post._id, MINIMAL))),
        ...mine.map((post) =>
          later(() => commentRequest(t.app, other.token, post._id, `re ${i}`, MINIMAL)),
        ),
        later(() => bookmark(t.app, other.token, nth(mine, i % 2)._id, MINIMAL)),
        later(() => follow(t.app, other.token, member.user._id, MINIMAL)),
        later(() =>
          postRequest(
            t.app,
            other.token,
            { content: `#shared hi @${member.user.username}` },
            MINIMAL,
          ),
        ),
        later(() =>
          (i % 2 ? upvote : downvote)(
            t.app,
            other.token,
            nth(theirs, 1)._id,
            memberComment._id,
            MINIMAL,
          ),
        ),
      ]);

      const deletion = pause(10 + round * 35).then(() => deleteOwnAccount(t.app, member));
      const answers = await Promise.all([...own, ...fromOthers]);
      const deleted = await deletion;
      expect(deleted.statusCode, deleted.body).toBe(204);

      const unexpected = answers
        .filter((answer) => !ALLOWED.has(answer.statusCode))
        .map((answer) => `${answer.statusCode} ${answer.body}`);
      expect(unexpected, `round ${round}`).toEqual([]);

      await drain(t.app);
      const postIds = [
        ...mine.map((post) => post._id),
        ...(await Promise.all(ownPosts)).flatMap((answer) => idOfCreated(answer, 'post')),
      ];
      const commentIds = [
        memberComment._id,
        ...(await Promise.all(ownComments)).flatMap((answer) => idOfCreated(answer, 'comment')),
      ];
      expect(await rowsOfMember(t.app.db, member.user._id, postIds, commentIds)).toEqual(
        NOTHING_LEFT,
      );
      expect(await counterMismatches(t.app.db), `round ${round}`).toEqual(NO_MISMATCH);
      expect(await orphanRows(t.app.db), `round ${round}`).toEqual(NO_ORPHANS);
    }
  });

  it('keeps counts right when members delete their accounts at the same time', async () => {
    const members = [
      await createMember(t.app),
      await createMember(t.app),
      await createMember(t.app),
    ];
    // They follow, like and comment on each other: each deletion changes the others' rows.
    for (const a of members) {
      for (const b of members) {
        if (a === b) continue;
        await follow(t.app, a.token, b.user._id, MINIMAL);
      }
    }
    const posts = await Promise.all(
      members.map((member, i) => createPost(t.app, member.token, `#together #m${i} post`)),
    );
    for (const member of members) {
      for (const post of posts) {
        await like(t.app, member.token, post._id, MINIMAL);
        await addComment(t.app, member.token, post._id, 'all of us');
      }
    }
    const answers = await Promise.all(members.map((member) => deleteOwnAccount(t.app, member)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([204, 204, 204]);
    await drain(t.app);
    for (const member of members) {
      expect(await rowsOfMember(t.app.db, member.user._id, [], [])).toEqual(NOTHING_LEFT);
    }
    expect(await counterMismatches(t.app.db)).toEqual(NO_MISMATCH);
    expect(await orphanRows(t.app.db)).toEqual(NO_ORPHANS);
  });
});
