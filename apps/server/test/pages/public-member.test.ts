import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';

describe('members as people who are not signed in see them', () => {
  let t: TestApp;
  let shown: Member;
  let hidden: Member;

  const setPrivacy = (member: Member, values: { public_profile?: number; noindex?: number }) =>
    t.app.db.updateTable('users').set(values).where('id', '=', member.user._id).execute();

  beforeAll(async () => {
    t = await createTestApp();
    shown = await createMember(t.app);
    hidden = await createMember(t.app);
    await setPrivacy(hidden, { public_profile: 0 });
  });
  afterAll(() => t.close());

  it('answers a public member as the API shows them to anyone, whatever the name’s case', async () => {
    const found = await t.app.services.users.publicMember(shown.user.username.toUpperCase());
    expect(found).not.toBeNull();
    expect(found?.noindex).toBe(false);
    expect(found?.user).toMatchObject({
      _id: shown.user._id,
      username: shown.user.username,
      firstName: shown.user.firstName,
      postsCount: 0,
      followersCount: 0,
    });
    // Read anonymously: no email, no viewer's marks.
    expect(found?.user).not.toHaveProperty('email');
    expect(found?.user).not.toHaveProperty('followedByViewer');
  });

  it('carries the member’s counts as they are now', async () => {
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/posts',
      token: shown.token,
      payload: { postData: { content: 'first' } },
    });
    expect(response.statusCode).toBe(201);
    const found = await t.app.services.users.publicMember(shown.user.username);
    expect(found?.user.postsCount).toBe(1);
  });

  it('answers null for an unknown member and one who keeps their profile private', async () => {
    expect(await t.app.services.users.publicMember('nobody_here')).toBeNull();
    expect(await t.app.services.users.publicMember(hidden.user.username)).toBeNull();
  });

  it('says when a member asks search engines not to index them', async () => {
    await setPrivacy(shown, { noindex: 1 });
    expect((await t.app.services.users.publicMember(shown.user.username))?.noindex).toBe(true);
    await setPrivacy(shown, { noindex: 0 });
  });

  it('tells which of some members are public, leaving out unknown ids', async () => {
    const { publicAmong } = t.app.services.users;
    const among = await publicAmong([
      shown.user._id,
      hidden.user._id,
      'no-such-id',
      shown.user._id,
    ]);
    expect([...among]).toEqual([shown.user._id]);
    expect((await publicAmong([])).size).toBe(0);
    await setPrivacy(hidden, { public_profile: 1 });
    expect(await publicAmong([hidden.user._id])).toEqual(new Set([hidden.user._id]));
    await setPrivacy(hidden, { public_profile: 0 });
  });

  it('forgets a deleted member', async () => {
    const gone = await createMember(t.app);
    const response = await call(t.app, {
      method: 'DELETE',
      url: '/api/users/me',
      token: gone.token,
      payload: { password: gone.password, username: gone.user.username },
    });
    expect(response.statusCode).toBe(204);
    expect(await t.app.services.users.publicMember(gone.user.username)).toBeNull();
    expect((await t.app.services.users.publicAmong([gone.user._id])).size).toBe(0);
  });
});
