import type { Post, TagSummary, TrendingTag, User } from '@perch/contract';
import { http, HttpResponse } from 'msw';
import { server } from '../../test/server';

interface DiscoveryOptions {
  /** Posts every post search answers (one page). */
  posts?: Post[];
  /** Answers post searches with this 400 message instead. */
  postError?: string;
  members?: User[];
  tags?: TagSummary[];
  trending?: TrendingTag[];
}

/** Mock API of post, member and tag search and trending tags; returns the requests received. */
export function mockDiscovery({
  posts = [],
  postError,
  members = [],
  tags = [],
  trending = [],
}: DiscoveryOptions = {}) {
  const received = {
    posts: [] as URLSearchParams[],
    members: [] as URLSearchParams[],
    tags: [] as URLSearchParams[],
  };
  server.use(
    http.get('/api/search/posts', ({ request }) => {
      received.posts.push(new URL(request.url).searchParams);
      if (postError !== undefined) {
        return HttpResponse.json({ errors: [postError] }, { status: 400 });
      }
      return HttpResponse.json({ posts, nextCursor: null });
    }),
    http.get('/api/users', ({ request }) => {
      received.members.push(new URL(request.url).searchParams);
      return HttpResponse.json({ users: members, nextCursor: null });
    }),
    http.get('/api/tags', ({ request }) => {
      received.tags.push(new URL(request.url).searchParams);
      return HttpResponse.json({ tags });
    }),
    http.get('/api/trends/tags', () => HttpResponse.json({ tags: trending })),
  );
  return received;
}
