import type { UserPage } from '@perch/contract';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { commentKeys } from '../comment/comments.queries';
import { notificationKeys } from '../notification/notificationKeys';
import { postKeys } from '../post/postKeys';
import { userKeys } from '../member/users.queries';
import {
  invalidateHiddenContent,
  safetyKeys,
  showSafetyAction,
  type SafetyListPages,
} from './safetyCache';

const grace = makeUser({
  _id: 'u-grace',
  id: 'u-grace',
  username: 'grace_h',
  followedByViewer: true,
});
const alan = makeUser({ _id: 'u-alan', id: 'u-alan', username: 'alan' });

let queryClient: QueryClient;

beforeEach(() => {
  queryClient = new QueryClient();
});

const pages = (...users: (typeof grace)[]): SafetyListPages => ({
  pages: [{ users, nextCursor: null }],
  pageParams: [null],
});

function isStale(queryKey: QueryKey): boolean {
  return queryClient.getQueryState(queryKey)?.isInvalidated === true;
}

describe('invalidateHiddenContent', () => {
  const everything: QueryKey[] = [
    postKeys.list({ kind: 'home' }, 'latest'),
    postKeys.list({ kind: 'explore' }, 'trending'),
    postKeys.list({ kind: 'liked' }, 'latest'),
    postKeys.list({ kind: 'bookmarks' }, 'latest'),
    postKeys.list({ kind: 'user', username: 'alan' }, 'latest'),
    postKeys.list({ kind: 'tag', tag: 'rust' }, 'latest'),
    postKeys.list({ kind: 'search', q: 'fog', sort: 'top' }, 'latest'),
    postKeys.detail('p1'),
    commentKeys.post('p1'),
    userKeys.profile('grace_h'),
    userKeys.search('gr'),
    userKeys.searchPages('gr'),
    userKeys.suggestions,
    userKeys.mentions('gr'),
    notificationKeys.list,
    notificationKeys.unread,
    safetyKeys.list('blocked'),
    safetyKeys.list('muted'),
  ];

  it('marks every feed, post, comment list, member list, notification and safety list stale', () => {
    for (const key of everything) queryClient.setQueryData(key, {});

    invalidateHiddenContent(queryClient, { blockedUsername: 'grace_h' });

    expect(everything.filter((key) => !isStale(key))).toEqual([]);
  });

  it("marks the blocked member's own posts stale too, whatever the case of the name", () => {
    const theirs = postKeys.list({ kind: 'user', username: 'Grace_H' }, 'latest');
    queryClient.setQueryData(theirs, {});
    invalidateHiddenContent(queryClient, { blockedUsername: 'grace_h' });
    expect(isStale(theirs)).toBe(true);
  });
});

describe('showSafetyAction', () => {
  it('shows a block on the cached profile, ending the follow', () => {
    queryClient.setQueryData(userKeys.profile('grace_h'), grace);
    showSafetyAction(queryClient, grace._id, 'block');
    expect(queryClient.getQueryData(userKeys.profile('grace_h'))).toMatchObject({
      viewerBlocks: true,
      followedByViewer: false,
    });
  });

  it('takes an unmuted member off the muted list only', () => {
    queryClient.setQueryData(safetyKeys.list('muted'), pages(grace, alan));
    queryClient.setQueryData(safetyKeys.list('blocked'), pages(grace));

    showSafetyAction(queryClient, grace._id, 'unmute');

    const muted = queryClient.getQueryData<SafetyListPages>(safetyKeys.list('muted'));
    expect(muted?.pages.flatMap((page: UserPage) => page.users)).toEqual([alan]);
    const blocked = queryClient.getQueryData<SafetyListPages>(safetyKeys.list('blocked'));
    expect(blocked?.pages[0]?.users).toEqual([grace]);
  });
});
