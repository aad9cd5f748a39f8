import { describe, expect, it } from 'vitest';
import { makeUser, readStoredSession, storeSession } from '../../test/fixtures';
import {
  createSessionStore,
  readStoredSession as readSessionRecord,
  SESSION_STORAGE_KEY,
} from './session';

describe('session store: updateUser', () => {
  it('replaces the stored member, keeping the token and the confirmation', () => {
    const ada = makeUser();
    storeSession({ token: 'token-ada', user: ada });
    const store = createSessionStore(window.localStorage, undefined);
    store.confirm('token-ada', ada);
    let notified = 0;
    store.subscribe(() => {
      notified += 1;
    });

    const renamed = { ...ada, firstName: 'Augusta', followingCount: 4 };
    store.updateUser(renamed);

    expect(store.getSnapshot()).toEqual({
      session: { token: 'token-ada', user: renamed },
      verified: true,
    });
    expect(readStoredSession()).toEqual({ token: 'token-ada', user: renamed });
    expect(notified).toBe(1);
  });

  it("ignores another member's record and a signed-out store", () => {
    const ada = makeUser();
    storeSession({ token: 'token-ada', user: ada });
    const store = createSessionStore(window.localStorage, undefined);

    store.updateUser(makeUser({ _id: 'someone-else', firstName: 'Eve' }));
    expect(store.getSnapshot().session?.user).toEqual(ada);

    store.clear();
    store.updateUser(ada);
    expect(store.getSnapshot().session).toBeNull();
    expect(readStoredSession()).toBeNull();
  });
});

describe('session store: restoring the stored session', () => {
  const restore = (record: unknown) => {
    window.localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(record));
    return createSessionStore(window.localStorage, undefined).getSnapshot();
  };

  it('restores a well-formed record, unconfirmed until the server answers', () => {
    const ada = makeUser({ avatarURL: '/media/ada.webp' });

    expect(restore({ token: 'token-ada', user: ada })).toEqual({
      session: { token: 'token-ada', user: ada },
      verified: false,
    });
  });

  it.each([
    ['no token', { user: makeUser() }],
    ['an empty token', { token: '', user: makeUser() }],
    ['no user', { token: 'token-ada' }],
    ['a user without a username', { token: 'token-ada', user: { ...makeUser(), username: 7 } }],
    ['a user with an empty id', { token: 'token-ada', user: makeUser({ _id: '' }) }],
    [
      'a count that is not a number',
      { token: 'token-ada', user: { ...makeUser(), postsCount: '3' } },
    ],
    ['an avatar that is not text', { token: 'token-ada', user: { ...makeUser(), avatarURL: 1 } }],
  ])('forgets a record with %s', (_case, record) => {
    expect(restore(record)).toEqual({ session: null, verified: false });
    expect(readStoredSession()).toBeNull();
  });
});

describe('readStoredSession (the start-up check)', () => {
  it('reads a well-formed record without changing storage', () => {
    const ada = makeUser();
    storeSession({ token: 'token-ada', user: ada });
    expect(readSessionRecord(window.localStorage)).toEqual({ token: 'token-ada', user: ada });
  });

  it('finds none when nothing is stored, or the record is unreadable, and leaves it there', () => {
    expect(readSessionRecord(window.localStorage)).toBeNull();
    window.localStorage.setItem(SESSION_STORAGE_KEY, '{"token": ');
    expect(readSessionRecord(window.localStorage)).toBeNull();
    expect(window.localStorage.getItem(SESSION_STORAGE_KEY)).toBe('{"token": ');
    expect(readSessionRecord(undefined)).toBeNull();
  });
});
