import type { User } from '@perch/contract';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser } from '../test/fixtures';
import { createSessionStore } from '../entities/session/session';
import { notificationKeys } from '../entities/notification/notificationKeys';
import { postKeys } from '../entities/post/postKeys';
import { safetyKeys } from '../entities/safety/safetyCache';
import { userKeys } from '../entities/member/users.queries';
import type { LiveEvent } from '../shared/live/liveEventTypes';
import type { LiveContext } from '../shared/live/liveEventHandlers';
import { applyLiveEvent } from './liveEventHandlers';
import { createNewPostsStore } from '../shared/live/newPosts';

const viewer = makeUser({ _id: 'u-me', username: 'ada' });
const grace = makeUser({ _id: 'u-grace', username: 'grace_h' });

let queryClient: QueryClient;
let context: LiveContext;

beforeEach(() => {
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const store = createSessionStore(window.localStorage, undefined);
  store.signIn({ token: 'token-me', user: viewer });
  context = { queryClient, store, newPosts: createNewPostsStore() };
});

const home = postKeys.list({ kind: 'home' }, 'latest');
const graceProfile = userKeys.profile('grace_h');

function seed(profile: User = grace): void {
  queryClient.setQueryData(home, { pages: [], pageParams: [] });
  queryClient.setQueryData(graceProfile, profile);
  queryClient.setQueryData(notificationKeys.list, { pages: [], pageParams: [] });
  queryClient.setQueryData(safetyKeys.list('blocked'), { pages: [], pageParams: [] });
}

function isStale(queryKey: QueryKey): boolean {
  return queryClient.getQueryState(queryKey)?.isInvalidated === true;
}

const event = (
  type: 'member.blocked' | 'member.unblocked' | 'member.muted' | 'member.unmuted',
  userId = viewer._id,
): LiveEvent => ({ type, payload: { userId, targetId: grace._id } });

describe('blocks and mutes made in another tab', () => {
  it.each(['member.blocked', 'member.unblocked', 'member.muted', 'member.unmuted'] as const)(
    '%s reads feeds, profiles, notifications and the lists again',
    (type) => {
      seed();
      applyLiveEvent(context, event(type));
      for (const key of [home, graceProfile, notificationKeys.list, safetyKeys.list('blocked')]) {
        expect(isStale(key)).toBe(true);
      }
    },
  );

  it('changes nothing this tab already shows', () => {
    seed({ ...grace, viewerBlocks: true });
    applyLiveEvent(context, event('member.blocked'));
    expect(isStale(home)).toBe(false);
  });

  it('ignores another member’s event', () => {
    seed();
    applyLiveEvent(context, event('member.muted', 'u-someone'));
    expect(isStale(home)).toBe(false);
  });
});
