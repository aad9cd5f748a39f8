import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drain } from '../events/event-helpers';
import { counterMismatches, NO_MISMATCH } from '../account/account-helpers';
import { createTestApp, type TestApp } from '../helpers';
import { MINIMAL, createMembers, createPost, deletePost, like } from '../social/social-helpers';
import { unreadOf } from './notification-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('unread counts under racing writes', () => {
  it('a post deleted while its author’s posts are liked: every answer right, counts equal rows', async () => {
    for (let round = 0; round < 6; round += 1) {
      const [author, ...likers] = await createMembers(t.app, 9);
      const doomed = await createPost(t.app, author.token, `doomed ${round}`);
      const kept = await createPost(t.app, author.token, `kept ${round}`);
      // Likes of both posts interleaved, so the notifications consumer takes them in one batch.
      const likes = likers.flatMap((liker) => [
        like(t.app, liker.token, kept._id, MINIMAL),
        like(t.app, liker.token, doomed._id, MINIMAL),
      ]);
      const [removal, ...answers] = await Promise.all([
        deletePost(t.app, author.token, doomed._id, MINIMAL),
        ...likes,
      ]);
      expect(removal.statusCode, removal.body).toBe(201);
      for (const answer of answers) expect([201, 404], answer.body).toContain(answer.statusCode);
      await drain(t.app);
      // Likes of the kept post stay notified; those of the deleted one went with it.
      const keptLikes = answers.filter(
        (answer, index) => index % 2 === 0 && answer.statusCode === 201,
      );
      expect(await unreadOf(t.app, author), `round ${round}`).toBe(keptLikes.length);
      expect(await counterMismatches(t.app.db), `round ${round}`).toEqual(NO_MISMATCH);
    }
  });
});
