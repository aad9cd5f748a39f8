import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorPostRows } from '../../src/modules/posts/posts.repository';
import type { Member } from '../factories';
import { firstQuerySent, sqlitePlanOf } from '../first-query';
import { createTestApp, type TestApp } from '../helpers';
import { testDatabaseKind } from '../test-database';
import { createMembers, createPost } from './social-helpers';

let t: TestApp;
let author: Member;
beforeAll(async () => {
  t = await createTestApp();
  [author] = await createMembers(t.app, 1);
  await createPost(t.app, author.token, 'one');
});
afterAll(() => t.close());

// PostgreSQL keeps no covering index of members' posts (see migration 0032).
describe.runIf(testDatabaseKind() === 'sqlite')("a member's page on SQLite", () => {
  it('reads every column of its cards from the covering index, not the table', async () => {
    const db = t.app.reads;
    for (const after of [null, [Date.now(), 'Z'.repeat(26)] as const]) {
      const query = await firstQuerySent(db, (catching) =>
        authorPostRows(catching, { userId: author.user._id, sort: 'latest', after, limit: 20 }),
      );
      const plan = await sqlitePlanOf(db, query);
      expect(plan).toMatch(/SEARCH p USING COVERING INDEX posts_user_card_idx\b/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
    }
  });
});
