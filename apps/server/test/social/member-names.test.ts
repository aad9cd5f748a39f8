import type { PostPage } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemberPresenter } from '../../src/read-model/member/presenter';
import { deleteOwnAccount } from '../account/account-helpers';
import { createMember } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import { handOnTo } from '../read-model-views';
import { createPost } from './social-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const postsOf = async (username: string) => {
  const answer = await call(t.app, { method: 'GET', url: `/api/posts/user/${username}` });
  const contents =
    answer.statusCode === 200 ? answer.json<PostPage>().posts.map((p) => p.content) : null;
  return { status: answer.statusCode, contents };
};

describe("a member's kept id by username", () => {
  it('is dropped with their account, so the name names its next member at once', async () => {
    const first = await createMember(t.app);
    const name = first.user.username;
    await createPost(t.app, first.token, 'by the first');
    // Read twice: kept after the first.
    expect((await postsOf(name)).contents).toEqual(['by the first']);
    expect((await postsOf(name.toUpperCase())).contents).toEqual(['by the first']);

    expect((await deleteOwnAccount(t.app, first)).statusCode).toBe(204);
    expect((await postsOf(name)).status).toBe(404);

    const next = await createMember(t.app, { username: name, email: `again-${name}@example.com` });
    expect(next.user._id).not.toBe(first.user._id);
    await createPost(t.app, next.token, 'by the next');
    expect((await postsOf(name)).contents).toEqual(['by the next']);
  });

  it('is found at once for a member who registers after the name was asked for', async () => {
    const name = `later_${process.pid}`;
    expect((await postsOf(name)).status).toBe(404);
    const member = await createMember(t.app, { username: name, email: `${name}@example.com` });
    await createPost(t.app, member.token, 'here now');
    expect((await postsOf(name)).contents).toEqual(['here now']);
  });

  it("is dropped in another process when the relay hands on the account's deletion", async () => {
    const member = await createMember(t.app);
    const elsewhere = createMemberPresenter({
      reads: t.app.reads,
      maxSummaries: 100,
      maxViews: 100,
      maxFollowees: 100,
      maxFolloweesPerMember: 10,
      maxSearchPages: 0,
    });
    expect(await elsewhere.idOf(member.user.username)).toBe(member.user._id);

    expect((await deleteOwnAccount(t.app, member)).statusCode).toBe(204);
    // Kept until the event arrives.
    expect(await elsewhere.idOf(member.user.username)).toBe(member.user._id);
    handOnTo({ members: elsewhere.invalidate })([
      {
        id: 1,
        createdAt: Date.now(),
        type: 'member.deleted',
        payload: { userId: member.user._id, mediaURLs: [] },
      },
    ]);
    expect(await elsewhere.idOf(member.user.username)).toBeNull();
  });
});
