import type { Recorder, Request } from './recorder';
import type { World } from './scenario-writes';

/** author, follower (mutes ben), stranger, blocked member, and no one. */
const VIEWERS = ['anna', 'ben', 'cara', 'dan', 'eve', 'anonymous'] as const;
type Viewer = (typeof VIEWERS)[number];

/** anna reads the full answers (embedded arrays), ben some of them; the others the lean ones. */
const BEN_FULL = new Set([
  '/api/posts/feed?sort=latest',
  '/api/users/bookmark',
  '/api/auth/me',
  '/api/users/ben',
]);
const isFull = (viewer: Viewer, url: string) =>
  viewer === 'anna' || (viewer === 'ben' && BEN_FULL.has(url));
const EVERYONE = VIEWERS;
const MEMBERS = VIEWERS.filter((viewer) => viewer !== 'anonymous');
const SOME = ['ben', 'anonymous'] as const;
const HIDING = ['ben', 'dan', 'eve', 'anonymous'] as const;

/** Each read and who reads it: the calls where viewers differ most are read by everyone. */
function reads(w: World): [url: string, viewers: readonly Viewer[]][] {
  return [
    ['/api/posts/feed?sort=latest', MEMBERS],
    ['/api/posts/feed?sort=oldest', ['ben']],
    ['/api/posts/feed?sort=trending', ['ben']],
    ['/api/posts/explore', MEMBERS],
    ['/api/posts/explore?sort=trending', ['cara']],
    ['/api/posts/liked', MEMBERS],
    ['/api/users/bookmark', MEMBERS],
    ['/api/notifications', MEMBERS],
    ['/api/notifications/unread', MEMBERS],
    ['/api/users/suggestions', MEMBERS],
    ['/api/auth/me', MEMBERS],
    ['/api/auth/sessions', MEMBERS],
    ['/api/users/me/blocked', MEMBERS],
    ['/api/users/me/muted', MEMBERS],
    ['/api/posts?sort=latest', ['anna', 'dan', 'eve', 'anonymous']],
    ['/api/posts?sort=oldest', ['anonymous']],
    [`/api/posts/${w.post('hello')}`, EVERYONE],
    [`/api/posts/${w.post('dan')}`, EVERYONE],
    [`/api/posts/${w.post('bread')}`, SOME],
    ['/api/posts/user/anna', HIDING],
    ['/api/posts/user/ben?sort=oldest', SOME],
    ['/api/posts/user/dan', EVERYONE],
    ['/api/users/anna', EVERYONE],
    ['/api/users/ben', EVERYONE],
    ['/api/users/dan', EVERYONE],
    ['/api/users/eve', SOME],
    [`/api/comments/${w.post('hello')}`, EVERYONE],
    [`/api/comments/${w.post('bread')}`, SOME],
    ['/api/users', SOME],
    ['/api/users?q=an', HIDING],
    ['/api/search/posts?q=coffee', HIDING],
    ['/api/search/posts?q=cafe', SOME],
    ['/api/search/posts?q=bak*', SOME],
    ['/api/tags?q=co', SOME],
    ['/api/tags/coffee', HIDING],
    ['/api/tags/%23Baking', ['eve', 'anonymous']],
    ['/api/trends/tags', SOME],
  ];
}

/** Every list and record, as each viewer sees it (members only for the calls that need one). */
export async function readAll(r: Recorder, w: World): Promise<void> {
  const list = reads(w);
  for (const viewer of VIEWERS) {
    for (const [url, viewers] of list) {
      if (viewers.includes(viewer)) await r.send(viewer, { url, minimal: !isFull(viewer, url) });
    }
  }
}

/** A list walked a page at a time, following nextCursor. */
async function walk(r: Recorder, viewer: Viewer, url: string, key: string): Promise<void> {
  let cursor: string | null = null;
  for (let page = 0; page < 10; page += 1) {
    const separator = url.includes('?') ? '&' : '?';
    const request: Request = {
      url: `${url}${separator}limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      minimal: true,
    };
    const body = await r.json<Record<string, unknown>>(viewer, request);
    if (!Array.isArray(body[key])) throw new Error(`${url}: no ${key}`);
    cursor = typeof body.nextCursor === 'string' ? body.nextCursor : null;
    if (!cursor) return;
  }
}

export async function readPages(r: Recorder, w: World): Promise<void> {
  await walk(r, 'ben', '/api/posts/feed', 'posts');
  await walk(r, 'ben', '/api/posts/feed?sort=oldest', 'posts');
  await walk(r, 'anonymous', '/api/posts?sort=trending', 'posts');
  await walk(r, 'anonymous', `/api/comments/${w.post('hello')}`, 'comments');
  await walk(r, 'anna', '/api/notifications', 'notifications');
  await walk(r, 'anonymous', '/api/users', 'users');
  await walk(r, 'anonymous', '/api/search/posts?q=coffee', 'posts');
}

/** Error answers: unknown ids, missing or bad tokens, bad input. */
export async function readErrors(r: Recorder): Promise<void> {
  const unknown = '00000000000000000000000000';
  const asAnyone = [
    `/api/posts/${unknown}`,
    `/api/comments/${unknown}`,
    '/api/users/nobody',
    '/api/posts/user/nobody',
    '/api/posts/feed',
    '/api/notifications',
    '/api/auth/me',
    '/api/posts?limit=0',
    '/api/posts?limit=51',
    '/api/posts?sort=sideways',
    '/api/posts?cursor=garbage',
    '/api/search/posts?q=',
    '/api/search/posts?q=%22open',
    '/api/search/posts?q=a*',
    '/api/tags/%23%23',
    '/api/nothing/here',
  ];
  for (const url of asAnyone) await r.send('anonymous', { url });
  r.tokens.set('forger', 'not-a-token');
  await r.send('forger', { url: '/api/posts' });
  await r.send('forger', { url: '/api/posts/feed' });
  await r.send('anonymous', { url: '/api/health' });
}
