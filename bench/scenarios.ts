/**
 * The HTTP scenarios: the requests each one sends (as which member, on which post) and the
 * bookkeeping of every write sent and answered, which the checks after the run compare with the
 * database.
 */
import type { Member } from './lib/copy';
import type { Request, Scenario } from './lib/load';
import type { Prng } from './lib/prng';
import {
  commentText,
  postSearches,
  postText,
  rareWordsFor,
  searchFragment,
  someTag,
} from './lib/text';

/** Writes sent and writes answered 2xx, by kind: what the database must show afterwards. */
export interface WriteLog {
  sent: Record<string, number>;
  succeeded: Record<string, number>;
  /** The first failure (status and start of the body) of each scenario. */
  failures: Map<string, string>;
  /** Ids of the posts whose creation was answered 2xx, by scenario. */
  createdPosts: Record<string, string[]>;
  /** The scenario being run: failures are filed under it. */
  current: string;
  /** Answers with a 5xx status, in any scenario. */
  serverErrors: number;
}

export interface LoadContext {
  prng: Prng;
  /** The members the load acts as, in turn. */
  members: readonly Member[];
  /** The member with the most followers (create-post-celebrity posts as them). */
  celebrity: Member;
  /** Every member of the instance, for profile and user-posts targets. */
  usernames: readonly string[];
  /** Every post id, oldest first. */
  postIds: readonly string[];
  /** `index:postId` pairs liked (bookmarked) already: in the instance or earlier in the run. */
  liked: Set<string>;
  bookmarked: Set<string>;
}

/** A (member, post) pair for a like or bookmark. */
export interface Pair {
  member: Member;
  postId: string;
}

/**
 * How a read is sent: as Perch's web app sends it (token, `Prefer: return=minimal`: no embedded
 * arrays), as a client of the original API does (the session cookie only: the spec's arrays),
 * or with the token but no preference (the default answer, arrays included).
 */
export type ReadAs = 'app' | 'spec-client' | 'full' | 'app-compressed' | 'spec-client-compressed';

/** What a browser says it accepts, for the reads sent compressed (decision 0035). */
const ACCEPTS = { 'accept-encoding': 'gzip, deflate, br' };

export const auth = (member: Member, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${member.token}`,
  ...extra,
});

const writeHeaders = (member: Member, json: boolean) =>
  auth(member, {
    prefer: 'return=minimal',
    ...(json ? { 'content-type': 'application/json' } : {}),
  });

/** The id of the post in a create-post answer (`{ post: { id } }`), or null. */
function createdPostId(body: string): string | null {
  try {
    const id = (JSON.parse(body) as { post?: { id?: unknown } }).post?.id;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

const bump = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

/** The write log and its two recorders: for autocannon's answers and for writes sent elsewhere. */
function createWriteLog() {
  const writes: WriteLog = {
    sent: {},
    succeeded: {},
    failures: new Map(),
    createdPosts: {},
    current: '',
    serverErrors: 0,
  };
  const record =
    (key: string, onSuccess?: (body: string) => void) => (status: number, body: string) => {
      if (status >= 500) writes.serverErrors += 1;
      if (status >= 200 && status < 300) {
        bump(writes.succeeded, key);
        onSuccess?.(body);
      } else if (!writes.failures.has(writes.current)) {
        writes.failures.set(writes.current, `${status} ${body.slice(0, 200)}`);
      }
    };
  /** A write sent outside autocannon (the live-events likes), for the same checks. */
  const recordWrite = (key: string, status: number) => {
    bump(writes.sent, key);
    if (status >= 200 && status < 300) bump(writes.succeeded, key);
  };
  return { writes, record, recordWrite };
}

/** The members in turn, and posts and members drawn at random (half the posts among the newest). */
function createPickers({ prng, members, usernames, postIds }: LoadContext) {
  if (members.length === 0) throw new Error('the instance has no members');
  let turn = 0;
  const nextMember = (): Member => {
    const member = members[turn++ % members.length];
    if (!member) throw new Error('no member');
    return member;
  };
  const recent = Math.max(1, Math.floor(postIds.length * 0.02));
  const pickPost = () =>
    (prng.chance(0.5)
      ? postIds[postIds.length - 1 - prng.int(recent)]
      : postIds[prng.int(postIds.length)]) ?? '';
  const pickUsername = () => usernames[prng.int(usernames.length)] ?? '';
  return { nextMember, pickPost, pickUsername };
}

type Pickers = ReturnType<typeof createPickers>;
type Record_ = ReturnType<typeof createWriteLog>['record'];

/** A GET as `readAs` reads it, for the next member. */
function getRequest(nextMember: () => Member, record: Record_) {
  const readHeaders = (readAs: ReadAs): Record<string, string> => {
    const member = nextMember();
    switch (readAs) {
      case 'spec-client':
        return { cookie: `perch_session=${member.token}` };
      case 'spec-client-compressed':
        return { cookie: `perch_session=${member.token}`, ...ACCEPTS };
      case 'app':
        return auth(member, { prefer: 'return=minimal' });
      case 'app-compressed':
        return auth(member, { prefer: 'return=minimal', ...ACCEPTS });
      case 'full':
        return auth(member);
    }
  };
  return (key: string, pathOf: () => string, readAs: ReadAs = 'app'): Request => ({
    method: 'GET',
    setupRequest: (request) => ({ ...request, path: pathOf(), headers: readHeaders(readAs) }),
    onResponse: record(key),
  });
}

/**
 * (member, post) pairs not liked (or bookmarked) in the instance and never used before in this
 * benchmark, so that each on/off pair succeeds even when a run stopped between its two requests.
 */
const pairsOf =
  ({ nextMember, pickPost }: Pickers, taken: Set<string>) =>
  (): Pair => {
    for (;;) {
      const member = nextMember();
      const postId = pickPost();
      const key = `${member.index}:${postId}`;
      if (taken.has(key)) continue;
      taken.add(key);
      return { member, postId };
    }
  };

/** A POST turning something on for a fresh pair, then off for the same pair. */
function toggleRequests(
  { writes, record }: Pick<ReturnType<typeof createWriteLog>, 'writes' | 'record'>,
  next: () => Pair,
  [key, on, off]: [key: string, on: string, off: string],
): Request[] {
  const post = (path: string, side: 'on' | 'off', pairOf: (context: { pair?: Pair }) => Pair) => ({
    method: 'POST' as const,
    setupRequest: (request: Request, requestContext: unknown) => {
      const context = requestContext as { pair?: Pair };
      const pair = pairOf(context);
      context.pair = pair;
      bump(writes.sent, `${key}:${side}`);
      return {
        ...request,
        path: `${path}${pair.postId}`,
        headers: writeHeaders(pair.member, false),
      };
    },
    onResponse: record(`${key}:${side}`),
  });
  return [post(on, 'on', () => next()), post(off, 'off', (context) => context.pair ?? next())];
}

/** POST /api/posts as `author()`; the ids answered are kept for the check after the run. */
function createPostRequests(
  { writes, record }: Pick<ReturnType<typeof createWriteLog>, 'writes' | 'record'>,
  { prng, rareWords }: { prng: Prng; rareWords: number },
  key: string,
  author: () => Member,
): Request[] {
  return [
    {
      method: 'POST',
      setupRequest: (request) => {
        bump(writes.sent, key);
        return {
          ...request,
          path: '/api/posts',
          headers: writeHeaders(author(), true),
          body: JSON.stringify({ postData: { content: postText(prng, rareWords) } }),
        };
      },
      onResponse: record(key, (body) => {
        const id = createdPostId(body);
        if (id !== null) (writes.createdPosts[key] ??= []).push(id);
      }),
    },
  ];
}

type ReadRow = [name: string, what: string, path: () => string, readAs?: ReadAs];

/** Every read scenario: its name, what it sends, its path and how it is read. */
function readRows(prng: Prng, rareWords: number, pickUsername: () => string): ReadRow[] {
  return [
    ['health', 'GET /api/health (framework + SELECT 1)', () => '/api/health'],
    ['feed-latest', 'GET /api/posts/feed?sort=latest', () => '/api/posts/feed?sort=latest'],
    ['feed-trending', 'GET /api/posts/feed?sort=trending', () => '/api/posts/feed?sort=trending'],
    ['explore', 'GET /api/posts/explore', () => '/api/posts/explore?sort=latest'],
    ['profile', 'GET /api/users/{username}', () => `/api/users/${pickUsername()}`],
    ['user-posts', 'GET /api/posts/user/{username}', () => `/api/posts/user/${pickUsername()}`],
    ['liked', 'GET /api/posts/liked', () => '/api/posts/liked'],
    ['bookmarks', 'GET /api/users/bookmark', () => '/api/users/bookmark'],
    ['search', 'GET /api/users?q=<2-3 letters>', () => `/api/users?q=${searchFragment(prng)}`],
    ['suggestions', 'GET /api/users/suggestions', () => '/api/users/suggestions'],
    ...(Object.keys(postSearches) as (keyof typeof postSearches)[]).map((kind): ReadRow => [
      `search-posts-${kind}`,
      `GET /api/search/posts?q=<${kind}>`,
      () => `/api/search/posts?q=${encodeURIComponent(postSearches[kind](prng, rareWords))}`,
    ]),
    ['tag-page', 'GET /api/tags/{tag}', () => `/api/tags/${someTag(prng)}`],
    [
      'posts-spec',
      "GET /api/posts as the spec's client reads it (cookie; comments, likedBy embedded)",
      () => '/api/posts?sort=latest',
      'spec-client',
    ],
    [
      'feed-latest-full',
      'GET /api/posts/feed?sort=latest with no Prefer (comments embedded)',
      () => '/api/posts/feed?sort=latest',
      'full',
    ],
    [
      'feed-latest-gz',
      'GET /api/posts/feed?sort=latest accepting gzip and br as browsers do (compressed in the process)',
      () => '/api/posts/feed?sort=latest',
      'app-compressed',
    ],
    [
      'posts-spec-gz',
      "GET /api/posts as the spec's client reads it, accepting gzip and br",
      () => '/api/posts?sort=latest',
      'spec-client-compressed',
    ],
    [
      'profile-spec',
      "GET /api/users/{username} as the spec's client reads it (followers, following)",
      () => `/api/users/${pickUsername()}`,
      'spec-client',
    ],
  ];
}

/** The scenarios, their write log, and what the live-events run sends itself. */
export function createLoad(context: LoadContext) {
  const { prng, celebrity, postIds, liked, bookmarked } = context;
  const rareWords = rareWordsFor(postIds.length);
  const log = createWriteLog();
  const { writes, record } = log;
  const pickers = createPickers(context);
  const { nextMember, pickPost } = pickers;
  const get = getRequest(nextMember, record);
  const text = { prng, rareWords };

  const scenarios: Scenario[] = [
    ...readRows(prng, rareWords, pickers.pickUsername).map(([name, what, pathOf, readAs]) => ({
      name,
      what,
      write: false,
      requests: () => [get(name, pathOf, readAs)],
    })),
    {
      name: 'like',
      what: 'POST like then dislike (same member and post)',
      write: true,
      requests: () =>
        toggleRequests(log, pairsOf(pickers, liked), [
          'like',
          '/api/posts/like/',
          '/api/posts/dislike/',
        ]),
    },
    {
      name: 'bookmark',
      what: 'POST bookmark then remove-bookmark',
      write: true,
      requests: () =>
        toggleRequests(log, pairsOf(pickers, bookmarked), [
          'bookmark',
          '/api/users/bookmark/',
          '/api/users/remove-bookmark/',
        ]),
    },
    {
      name: 'comment',
      what: 'POST /api/comments/add/{postId}',
      write: true,
      requests: () => [
        {
          method: 'POST',
          setupRequest: (request) => {
            bump(writes.sent, 'comment');
            return {
              ...request,
              path: `/api/comments/add/${pickPost()}`,
              headers: writeHeaders(nextMember(), true),
              body: JSON.stringify({ commentData: { text: commentText(prng) } }),
            };
          },
          onResponse: record('comment'),
        },
      ],
    },
    {
      name: 'create-post',
      what: 'POST /api/posts',
      write: true,
      requests: () => createPostRequests(log, text, 'create-post', nextMember),
    },
    {
      name: 'create-post-celebrity',
      what: 'POST /api/posts as the most-followed member',
      write: true,
      requests: () => createPostRequests(log, text, 'create-post-celebrity', () => celebrity),
    },
  ];

  return {
    scenarios,
    writes,
    get,
    nextLike: pairsOf(pickers, liked),
    recordWrite: log.recordWrite,
  };
}
