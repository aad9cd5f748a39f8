import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers';
import { createMembers, follow, unfollow } from '../social/social-helpers';
import { followCounterMismatches, followRowsBetween, safetyCall } from './safety-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const ROUNDS = 25;

describe('a block racing follows', () => {
  it('never leaves a follow across a block, and counters equal rows', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const [a, b] = await createMembers(t.app, 2);
      // Some rounds start from an existing follow, which the block must end.
      if (round % 3 === 0) await follow(t.app, a.token, b.user._id);
      const answers = await Promise.all([
        follow(t.app, b.token, a.user._id),
        safetyCall(t.app, 'block', a.token, b.user._id),
        round % 2 === 0 ? follow(t.app, a.token, b.user._id) : unfollow(t.app, a.token, b.user._id),
        follow(t.app, b.token, a.user._id),
      ]);
      for (const answer of answers) expect(answer.statusCode, answer.body).toBeLessThan(500);
      expect(answers[1].statusCode).toBe(204);
      expect(await followRowsBetween(t.app, a.user._id, b.user._id)).toEqual([]);
    }
    expect(await followCounterMismatches(t.app)).toEqual([]);
  });

  it('lets follows after an unblock through again, counted', async () => {
    const [a, b] = await createMembers(t.app, 2);
    await safetyCall(t.app, 'block', b.token, a.user._id);
    expect((await follow(t.app, a.token, b.user._id)).statusCode).toBe(404);
    await safetyCall(t.app, 'unblock', b.token, a.user._id);
    expect((await follow(t.app, a.token, b.user._id)).statusCode).toBe(200);
    expect(await followRowsBetween(t.app, a.user._id, b.user._id)).toHaveLength(1);
    expect(await followCounterMismatches(t.app)).toEqual([]);
  });
});
