import type { FollowResponse, User, UserEditBody } from '@perch/contract';
import { screen } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { makeUser, storeSession } from '../../test/fixtures';
import { server } from '../../test/server';

/** Mock API of member calls for component tests, backed by a small in-memory directory. */

export const viewer = makeUser({
  _id: 'u-ada',
  id: 'u-ada',
  username: 'ada',
  firstName: 'Ada',
  lastName: 'Lovelace',
  followingCount: 1,
  followersCount: 2,
  postsCount: 3,
});

export const grace = makeUser({
  _id: 'u-grace',
  id: 'u-grace',
  username: 'grace_h',
  firstName: 'Grace',
  lastName: 'Hopper',
  email: undefined,
  bio: 'Compilers.',
  followersCount: 5,
  followedByViewer: false,
});

export const alan = makeUser({
  _id: 'u-alan',
  id: 'u-alan',
  username: 'alan',
  firstName: 'Alan',
  lastName: 'Turing',
  email: undefined,
  bio: '',
  followersCount: 4,
  followedByViewer: false,
});

export const linus = makeUser({
  _id: 'u-linus',
  id: 'u-linus',
  username: 'linus',
  firstName: 'Linus',
  lastName: 'Torvalds',
  email: undefined,
  bio: '',
  followersCount: 3,
  followedByViewer: true,
});

export const TOKEN = 'token-ada';

/** Signs `user` in (stored session accepted by /api/auth/me). */
export function signIn(user: User = viewer): void {
  storeSession({ token: TOKEN, user });
  server.use(http.get('/api/auth/me', () => HttpResponse.json({ user })));
}

interface DirectoryOptions {
  /** Members other than the viewer. */
  members?: User[];
  /** Answers follow and unfollow with this status instead of applying them. */
  followStatus?: number;
  /** Pauses suggestions this long (ms), or forever with 'infinite'. */
  suggestionsDelay?: number | 'infinite';
  /** Answers profile edits with this status instead of applying them. */
  editStatus?: number;
}

/**
 * Serves the viewer and `members`: profiles, search, suggestions (not followed, most followed
 * first), follow/unfollow and profile edit, plus an empty post list for every member. Returns
 * what it received.
 */
export function mockDirectory({
  members = [grace, alan, linus],
  followStatus,
  suggestionsDelay,
  editStatus,
}: DirectoryOptions = {}) {
  let me: User = { ...viewer };
  const people = new Map(members.map((member) => [member._id, { ...member }]));
  const received = {
    searches: [] as string[],
    follows: [] as { userId: string; follow: boolean }[],
    edits: [] as UserEditBody['userData'][],
    suggestionCalls: 0,
  };
  const everyone = () => [{ ...me, followedByViewer: false }, ...people.values()];

  const changeFollow = (follow: boolean) =>
    http.post<{ userId: string }>(
      `/api/users/${follow ? 'follow' : 'unfollow'}/:userId`,
      async ({ params }) => {
        received.follows.push({ userId: params.userId, follow });
        await delay(150);
        if (followStatus !== undefined) {
          return HttpResponse.json({ errors: ['Nope'] }, { status: followStatus });
        }
        const target = people.get(params.userId);
        if (!target) return HttpResponse.json({ errors: ['User not found.'] }, { status: 404 });
        const delta = follow ? 1 : -1;
        const updated = {
          ...target,
          followedByViewer: follow,
          followersCount: target.followersCount + delta,
        };
        people.set(target._id, updated);
        me = { ...me, followingCount: me.followingCount + delta };
        return HttpResponse.json({ user: me, followUser: updated } satisfies FollowResponse);
      },
    );

  server.use(
    http.get('/api/users', ({ request }) => {
      const q = new URL(request.url).searchParams.get('q') ?? '';
      received.searches.push(q);
      const text = q.toLowerCase();
      const users = everyone().filter((user) =>
        [user.username, user.firstName, user.lastName].some((value) =>
          value.toLowerCase().includes(text),
        ),
      );
      return HttpResponse.json({ users, nextCursor: null });
    }),
    http.get('/api/users/suggestions', async ({ request }) => {
      received.suggestionCalls += 1;
      if (suggestionsDelay !== undefined) await delay(suggestionsDelay);
      const limit = Number(new URL(request.url).searchParams.get('limit') ?? '20');
      const users = [...people.values()]
        .filter((user) => user.followedByViewer !== true)
        .sort((a, b) => b.followersCount - a.followersCount)
        .slice(0, limit);
      return HttpResponse.json({ users, nextCursor: null });
    }),
    http.get<{ username: string }>('/api/users/:username', ({ params }) => {
      const user = everyone().find(
        (member) => member.username.toLowerCase() === params.username.toLowerCase(),
      );
      return user
        ? HttpResponse.json({ user })
        : HttpResponse.json({ errors: ['User not found.'] }, { status: 404 });
    }),
    http.post('/api/users/edit', async ({ request }) => {
      const { userData } = (await request.json()) as UserEditBody;
      received.edits.push(userData);
      await delay(20);
      if (editStatus !== undefined) {
        return HttpResponse.json({ errors: ['Nope'] }, { status: editStatus });
      }
      me = {
        ...me,
        firstName: userData.firstName.trim(),
        lastName: userData.lastName.trim(),
        bio: userData.bio ?? me.bio,
        avatarURL: userData.avatarURL === undefined ? me.avatarURL : userData.avatarURL,
      };
      return HttpResponse.json({ user: me });
    }),
    changeFollow(true),
    changeFollow(false),
    http.get('/api/posts/user/:username', () => HttpResponse.json({ posts: [], nextCursor: null })),
  );

  return received;
}

/** The number shown beside a profile count ('Posts', 'Followers', 'Following'). */
export function profileCount(label: 'Posts' | 'Followers' | 'Following'): string | null {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? null;
}
