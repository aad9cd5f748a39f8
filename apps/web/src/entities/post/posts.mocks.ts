import type { Comment, Post, User } from '@perch/contract';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { makeUser, storeSession } from '../../test/fixtures';
import { server } from '../../test/server';

/** The signed-in member of the post tests. */
export const me = makeUser({
  _id: 'u-me',
  id: 'u-me',
  username: 'ada',
  firstName: 'Ada',
  lastName: 'Lovelace',
});

export const grace = {
  _id: 'u-grace',
  id: 'u-grace',
  username: 'grace_h',
  firstName: 'Grace',
  lastName: 'Hopper',
  avatarURL: null,
};

let sequence = 0;

export function makePost(overrides: Partial<Post> = {}): Post {
  sequence += 1;
  const author = overrides.author ?? grace;
  const id = overrides._id ?? `p-${String(sequence)}`;
  return {
    _id: id,
    id,
    content: `Post number ${String(sequence)}`,
    entities: [],
    mediaURL: null,
    mediaAlt: null,
    // A post made with one image (mediaURL) holds it as a one-image album, as the server answers.
    media: overrides.mediaURL
      ? [
          {
            url: overrides.mediaURL,
            alt: overrides.mediaAlt ?? null,
            width: null,
            height: null,
            blurhash: null,
          },
        ]
      : [],
    contentWarning: null,
    sensitive: false,
    card: null,
    username: author.username,
    userId: author._id,
    author,
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
    pinned: false,
    quote: null,
    likes: { likeCount: 0, likedBy: [], dislikedBy: [] },
    commentCount: 0,
    repostCount: 0,
    likedByViewer: false,
    bookmarkedByViewer: false,
    repostedByViewer: false,
    poll: null,
    ...overrides,
  };
}

export function makeComment(overrides: Partial<Comment> = {}): Comment {
  sequence += 1;
  const id = overrides._id ?? `c-${String(sequence)}`;
  return {
    _id: id,
    id,
    postId: 'p-0',
    userId: grace._id,
    username: grace.username,
    firstName: grace.firstName,
    lastName: grace.lastName,
    profileAvatar: null,
    avatarURL: null,
    text: `Comment number ${String(sequence)}`,
    entities: [],
    votes: { upvoteCount: 0, downvoteCount: 0, upvotedBy: [], downvotedBy: [] },
    createdAt: '2026-11-22T11:00:00.000Z',
    updatedAt: '2026-11-22T11:00:00.000Z',
    ...overrides,
  };
}

/** Stores a session for `me` that the server confirms, and quiets the side panels' calls. */
export function signInAsMe(user: User = me): void {
  storeSession({ token: 'token-me', user });
  server.use(
    http.get('/api/auth/me', () => HttpResponse.json({ user })),
    http.get('/api/users/suggestions', () => HttpResponse.json({ users: [], nextCursor: null })),
    http.get('/api/users', () => HttpResponse.json({ users: [], nextCursor: null })),
  );
}

/** Answers every post list with the given posts (one page) and records the requests. */
export function mockFeeds(pages: Partial<Record<string, Post[]>> = {}) {
  const requests: URL[] = [];
  const answer = (name: string) => (request: Request) => {
    const url = new URL(request.url);
    requests.push(url);
    const posts = pages[name] ?? [];
    return HttpResponse.json(
      name === 'bookmarks' ? { bookmarks: posts, nextCursor: null } : { posts, nextCursor: null },
    );
  };
  server.use(
    http.get('/api/posts/feed', ({ request }) => answer('home')(request)),
    http.get('/api/posts/explore', ({ request }) => answer('explore')(request)),
    http.get('/api/posts/liked', ({ request }) => answer('liked')(request)),
    http.get('/api/users/bookmark', ({ request }) => answer('bookmarks')(request)),
  );
  return requests;
}

export function json(body: JsonBodyType, status = 200) {
  return HttpResponse.json(body, { status });
}
