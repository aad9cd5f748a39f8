import { describe, expect, it } from 'vitest';
import { makeUser, readStoredSession, storeSession } from '../../test/fixtures';
import { createSessionStore } from './session';

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
