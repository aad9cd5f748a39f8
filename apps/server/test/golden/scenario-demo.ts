import { GUEST_CREDENTIALS, type LoginResponse, type PostPage } from '@perch/contract';
import type { Recorder } from './recorder';

/**
 * The demo community (SEED=demo) as the guest and as no one sees it: the seed dates everything
 * from the app's clock, so with the test's clock it is the same every run. Lean answers, short
 * pages: the point is the seeded data's shape, the scenario covers the calls.
 */
export async function readDemo(r: Recorder): Promise<void> {
  const login = await r.json<LoginResponse>('anonymous', {
    method: 'POST',
    url: '/api/auth/login',
    payload: GUEST_CREDENTIALS,
    minimal: true,
  });
  r.tokens.set('guest', login.encodedToken);
  const first = await r.json<PostPage>('guest', { url: '/api/posts/feed?limit=5', minimal: true });
  const reads = [
    '/api/posts/explore?limit=3',
    '/api/users/suggestions?limit=5',
    '/api/notifications?limit=5',
    `/api/users/${GUEST_CREDENTIALS.username}`,
  ];
  for (const url of reads) await r.send('guest', { url, minimal: true });
  const open = [
    '/api/posts?sort=trending&limit=5',
    '/api/posts?sort=oldest&limit=3',
    '/api/users?limit=5',
    '/api/users?q=so',
    '/api/trends/tags',
    '/api/tags?q=',
    `/api/comments/${first.posts[0]?._id ?? 'none'}`,
  ];
  for (const url of open) await r.send('anonymous', { url, minimal: true });
}

/**
 * Post search over the demo posts, read last (ids are numbered in order of appearance). Its
 * order differs between the databases: the seed back-dates posts, and SQLite lists the matches
 * in the order they were written rather than newest first (PostgreSQL: newest first), so each
 * database keeps its own golden answer.
 */
export async function readDemoSearch(r: Recorder): Promise<void> {
  await r.send('anonymous', { url: '/api/search/posts?q=the&limit=3', minimal: true });
}
