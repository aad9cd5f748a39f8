import {
  SEARCH_TOP_MAX,
  SearchErrors,
  postSchema,
  postSearchPageSchema,
  type Post,
  type PublishedEvent,
} from '@perch/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransact } from '../../src/platform/events/transactions';
import { createSearchFirstPages } from '../../src/modules/discovery/search-first-pages';
import { createPostViewCache } from '../../src/read-model/post/view-cache';
import { dropViews } from '../drop-views';
import { newId } from '../../src/lib/ids';
import { NUL_REFUSED } from '../../src/app/plugins/input-guard';
import { createMember, type Member } from '../factories';
import { createTestApp, type TestApp } from '../helpers';
import { mute, postIdsAt, unmute } from '../safety/safety-helpers';
import { testDatabaseKind } from '../test-database';
import {
  bodyOf,
  createPost,
  deletePost,
  expectClientError,
  expectError,
  idsOf,
  walk,
} from '../social/social-helpers';
import { editPost, searchIds, searchRequest } from './discovery-helpers';

let t: TestApp;
let alice: Member;
let bob: Member;
beforeAll(async () => {
  t = await createTestApp();
  alice = await createMember(t.app, { username: 'alice_s' });
  bob = await createMember(t.app, { username: 'bob_s' });
});
afterAll(async () => {
  await t.close();
});

/** Writes the texts one after the other (alternating authors) and answers the posts. */
async function write(...texts: string[]): Promise<Post[]> {
  const posts: Post[] = [];
  for (const [i, text] of texts.entries()) {
    posts.push(await createPost(t.app, (i % 2 ? bob : alice).token, text));
  }
  return posts;
}

/** Ids of the posts, newest first (posts listed as written, oldest first). */
const newestFirst = (posts: readonly (Post | undefined)[]) =>
  posts.map((post) => post?._id).reverse();

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('what a search finds', () => {
  it('finds words in any case, with or without accents', async () => {
    const [cafe, upper, other] = await write(
      'Fresh bread at the Café',
      'CAFE society',
      'cafeteria',
    );
    for (const q of ['cafe', 'CAFÉ', 'café', 'Cafe', 'cafe\u0301']) {
      expect(await searchIds(t.app, q), q).toEqual(newestFirst([cafe, upper]));
    }
    expect(await searchIds(t.app, 'bread')).toEqual([cafe?._id]);
    expect(await searchIds(t.app, 'cafeteria')).toEqual([other?._id]);
  });

  it('finds prefixes, phrases and every term at once', async () => {
    const [baking, bakery, sale, kebab] = await write(
      'baking day',
      'Bakery open',
      'bake sale',
      'kebab',
    );
    expect(await searchIds(t.app, 'bak*')).toEqual(newestFirst([baking, bakery, sale]));
    expect(await searchIds(t.app, 'BAKI*')).toEqual([baking?._id]);
    expect(await searchIds(t.app, 'keba*')).toEqual([kebab?._id]);

    const [together, apart] = await write('quiet river stone', 'the river was quiet');
    expect(await searchIds(t.app, '"quiet river"')).toEqual([together?._id]);
    expect(await searchIds(t.app, '"Quiet  RIVER" stone')).toEqual([together?._id]);
    expect(await searchIds(t.app, 'quiet river')).toEqual(newestFirst([together, apart]));
    expect(await searchIds(t.app, '"river quiet"')).toEqual([]);

    const [redApple, greenApple, redCar] = await write('red apple', 'green apple', 'red car');
    expect(await searchIds(t.app, 'red apple')).toEqual([redApple?._id]);
    expect(await searchIds(t.app, 'apple')).toEqual(newestFirst([redApple, greenApple]));
    expect(await searchIds(t.app, 'red* car')).toEqual([redCar?._id]);
    expect(await searchIds(t.app, 'red apple car')).toEqual([]);
  });

  it('answers posts with their entities', async () => {
    const [post] = await write('searching with #Entities and @bob_s');
    const found = await searchIds(t.app, 'searching');
    expect(found).toEqual([post?._id]);
    const response = await searchRequest(t.app, 'searching');
    const answered = (response.json<{ posts: Post[] }>().posts[0]?.entities ?? []).map(
      (e) => e.type,
    );
    expect(answered).toEqual(['tag', 'mention']);
  });

  it('finds text among emoji and CJK', async () => {
    const [emoji, cjk] = await write('😀 sunrise 🇫🇷 🏳️‍🌈', '今日は 日本語 の 練習 😀');
    expect(await searchIds(t.app, 'sunrise')).toEqual([emoji?._id]);
    expect(await searchIds(t.app, '日本語')).toEqual([cjk?._id]);
    expect(await searchIds(t.app, '日本語 練習')).toEqual([cjk?._id]);
    expectError(await searchRequest(t.app, '😀'), 400, SearchErrors.noWords);
  });

  it('finds words of other scripts as they are written', async () => {
    const words = ['Ελληνικά', 'йогурт', 'Ёлка', 'हिन्दी', 'Tiếng', 'Dvořák', 'Øresund', 'العربية'];
    const posts = await write(...words.map((word) => `other script ${word} here`));
    const misses: string[] = [];
    for (const [i, word] of words.entries()) {
      for (const q of [word, word.toLowerCase(), word.toUpperCase()]) {
        const found = await searchIds(t.app, q);
        if (found.length !== 1 || found[0] !== posts[i]?._id) misses.push(q);
      }
    }
    expect(misses, 'words that did not find the post they are in').toEqual([]);
  });

  it('follows edits and deletes', async () => {
    const [post] = await write('old marmalade recipe');
    expect(await searchIds(t.app, 'marmalade')).toEqual([post?._id]);
    await editPost(t.app, alice.token, post?._id ?? '', 'new chutney recipe');
    expect(await searchIds(t.app, 'marmalade')).toEqual([]);
    expect(await searchIds(t.app, 'chutney')).toEqual([post?._id]);
    expect(await searchIds(t.app, 'chut*', { sort: 'top' })).toEqual([post?._id]);
    expect((await deletePost(t.app, alice.token, post?._id ?? '')).statusCode).toBe(201);
    expect(await searchIds(t.app, 'chutney')).toEqual([]);
    expect(await searchIds(t.app, 'chutney', { sort: 'top' })).toEqual([]);
  });
});

describe('pages of results', () => {
  it('pages newest first through every match', async () => {
    const posts: Post[] = [];
    for (let i = 0; i < 7; i += 1) {
      posts.push(...(await write(`pagewalk number ${i}`, `unrelated ${i}`)).slice(0, 1));
    }
    const { items, pages } = await walk(t.app, '/api/search/posts', 'posts', postSchema, {
      limit: 2,
      query: { q: 'pagewalk' },
    });
    expect(idsOf(items)).toEqual(newestFirst(posts));
    expect(pages).toBe(4);
    const last = await walk(t.app, '/api/search/posts', 'posts', postSchema, {
      limit: 7,
      query: { q: 'pagewalk', sort: 'latest' },
    });
    expect(last.pages).toBe(1);
    expect(idsOf(last.items)).toEqual(newestFirst(posts));
  });

  it('pages the most relevant first, with only matches, each once', async () => {
    const [best] = await write('topwalk topwalk topwalk topwalk');
    const others = await write(
      ...Array.from(
        { length: 6 },
        (_, i) => `a longer post ${i} with the word topwalk among many other words`,
      ),
      'nothing to see',
    );
    const matching = [best, ...others.slice(0, 6)].map((post) => post?._id).sort();
    const { items } = await walk(t.app, '/api/search/posts', 'posts', postSchema, {
      limit: 3,
      query: { q: 'topwalk', sort: 'top' },
    });
    expect(idsOf(items).slice().sort()).toEqual(matching);
    expect(items[0]?._id).toBe(best?._id);
    const past = await searchRequest(t.app, 'topwalk', {
      sort: 'top',
      cursor: cursorOf([SEARCH_TOP_MAX]),
    });
    expect(past.statusCode, past.body).toBe(200);
    expect(past.json()).toEqual({ posts: [], nextCursor: null });
  });
});

describe('queries a search refuses or takes literally', () => {
  it('takes operators and punctuation as plain words, never as syntax', async () => {
    const [either, minus, pair, caret] = await write(
      'this OR that',
      'minus -sign here',
      'col:val pair',
      'caret ^top',
    );
    expect(await searchIds(t.app, 'this OR that')).toEqual([either?._id]);
    expect(await searchIds(t.app, 'this that')).toEqual([either?._id]);
    expect(await searchIds(t.app, '-sign')).toEqual([minus?._id]);
    expect(await searchIds(t.app, 'col:val')).toEqual([pair?._id]);
    expect(await searchIds(t.app, '^top')).toEqual([caret?._id]);
    expect(await searchIds(t.app, 'NEAR(this that)')).toEqual([]);
    for (const q of [
      'NEAR(a b)',
      'a OR b',
      'a AND b',
      'NOT a',
      '-x',
      'col:val',
      '^a',
      'a:*',
      "it's",
      '{a b}',
      '[x]',
      'x + y',
      "'; drop table posts; --",
      '\\"',
      'a"b"c',
      '"" a',
      'a˘',
      'ё\u0306 ˘b',
      '"x ˘ y"',
      '\u02bc',
    ]) {
      for (const sort of ['latest', 'top']) {
        const response = await searchRequest(t.app, q, { sort });
        expect([200, 400], `${q} ${sort}: ${response.body}`).toContain(response.statusCode);
        if (response.statusCode === 400) expectClientError(response, 400);
      }
    }
  });

  it('refuses what has no words, with a message', async () => {
    const cases: [string, string][] = [
      ['*', SearchErrors.noWords],
      ['"', SearchErrors.unclosedQuote],
      ['""', SearchErrors.noWords],
      ["'", SearchErrors.noWords],
      // A mark standing alone (NFKC makes a spacing breve one) is no word.
      ['˘', SearchErrors.noWords],
      ['\u0301 \u0306', SearchErrors.noWords],
      ['( ) * : ^ -', SearchErrors.noWords],
      ['a*', SearchErrors.shortPrefix],
      ['"unclosed phrase', SearchErrors.unclosedQuote],
      // NUL is refused by the server before any route (plugins/input-guard.ts).
      ['nul\u0000here', NUL_REFUSED],
      ['\u0000', NUL_REFUSED],
      ['bell\u0007', SearchErrors.control],
      ['esc\u001b[0m', SearchErrors.control],
      ['x'.repeat(10 * 1024), SearchErrors.tooLong],
      ['   ', SearchErrors.empty],
      ['', SearchErrors.empty],
      ['a b c d e f g h i j k', SearchErrors.tooManyTerms],
    ];
    for (const [q, message] of cases) {
      for (const sort of ['latest', 'top'])
        expectError(await searchRequest(t.app, q, { sort }), 400, message);
    }
    expectError(
      await t.app.inject({ method: 'GET', url: '/api/search/posts' }),
      400,
      SearchErrors.empty,
    );
  });

  it('refuses forged cursors, bad sorts and limits', async () => {
    await write('cursor target');
    const forged = [
      'garbage!!',
      cursorOf({}),
      cursorOf(['x']),
      cursorOf([1.5]),
      cursorOf([null]),
      cursorOf([1, 2, 3]),
      cursorOf([1e300]),
      'A'.repeat(201),
      Buffer.from('[1').toString('base64url'),
    ];
    for (const cursor of forged) {
      for (const sort of ['latest', 'top']) {
        expectError(
          await searchRequest(t.app, 'cursor', { sort, cursor }),
          400,
          'cursor is invalid.',
        );
      }
    }
    expectError(
      await searchRequest(t.app, 'cursor', { sort: 'bogus' }),
      400,
      'sort must be latest or top.',
    );
    expectError(
      await searchRequest(t.app, 'cursor', { limit: 0 }),
      400,
      'limit must be at least 1.',
    );
    expectError(
      await searchRequest(t.app, 'cursor', { limit: 51 }),
      400,
      'limit must be at most 50.',
    );
    expectError(
      await searchRequest(t.app, 'cursor', { limit: 'ten' }),
      400,
      'limit must be a number.',
    );
    expect((await searchRequest(t.app, 'cursor', { limit: 50 })).statusCode).toBe(200);
  });

  it('refuses a relevance cursor that counts back before the first result', async () => {
    // The top cursor is how many results were shown: a forged negative count is no place in them.
    for (const count of [-1, -20]) {
      const response = await searchRequest(t.app, 'cursor', {
        sort: 'top',
        cursor: cursorOf([count]),
      });
      expectError(response, 400, 'cursor is invalid.');
    }
  });
});

describe('posts written together', () => {
  it('are each found once their answers are given', async () => {
    const texts = ['zephyr one', 'zephyr two', 'zephyr three', 'zephyr four', 'zephyr five'];
    // Sent at once: on SQLite they share one transaction of the group commit.
    const made = await Promise.all(
      texts.map((text, i) => createPost(t.app, (i % 2 ? bob : alice).token, text)),
    );
    expect(new Set(await searchIds(t.app, 'zephyr'))).toEqual(new Set(made.map((p) => p._id)));
    expect(await searchIds(t.app, '"zephyr three"')).toEqual([made[2]?._id]);
  });

  it('are indexed as they are at commit, when edited or deleted before it', async () => {
    const transact = createTransact(t.app.db, () => undefined);
    const now = Date.now();
    const row = (id: string, content: string) => ({
      id,
      user_id: alice.user._id,
      content,
      created_at: now,
      updated_at: now,
    });
    const [edited, deleted, kept] = [newId(now), newId(now), newId(now)];
    await transact(async (trx) => {
      await trx.insertInto('posts').values(row(edited, 'quokka first draft')).execute();
      await trx.insertInto('posts').values(row(deleted, 'quokka gone soon')).execute();
      await trx.insertInto('posts').values(row(kept, 'quokka as written')).execute();
      await trx
        .updateTable('posts')
        .set({ content: 'quokka final words' })
        .where('id', '=', edited)
        .execute();
      await trx.deleteFrom('posts').where('id', '=', deleted).execute();
    });
    expect(new Set(await searchIds(t.app, 'quokka'))).toEqual(new Set([edited, kept]));
    expect(await searchIds(t.app, 'final')).toEqual([edited]);
    expect(await searchIds(t.app, 'draft')).toEqual([]);
    expect(await searchIds(t.app, 'gone')).toEqual([]);
    if (testDatabaseKind() === 'sqlite') {
      // FTS5 compares its index with the posts it was given, and throws where they differ.
      await sql`insert into posts_search (posts_search, rank) values ('integrity-check', 1)`.execute(
        t.app.db,
      );
      const { rows } = await sql<{ n: number }>`
        select count(*) as n from posts_search_waiting`.execute(t.app.db);
      expect(rows[0]?.n).toBe(0);
    }
    await t.app.db.deleteFrom('posts').where('id', 'in', [edited, kept]).execute();
    expect(await searchIds(t.app, 'quokka')).toEqual([]);
  });
});

describe('first pages kept', () => {
  it('are brought up to date by the posts written since, and paged on from', async () => {
    const older = await write('osprey one', 'osprey two', 'osprey three');
    const firstPage = async () => {
      const response = await searchRequest(t.app, 'osprey', { limit: 2 });
      const page = bodyOf(postSearchPageSchema, response, 200);
      return { ids: idsOf(page.posts), cursor: page.nextCursor };
    };
    expect((await firstPage()).ids).toEqual(newestFirst(older).slice(0, 2));
    const newer = await write('osprey four', 'no match', 'osprey five');
    const all = newestFirst([...older, newer[0], newer[2]]);
    const first = await firstPage();
    expect(first.ids).toEqual(all.slice(0, 2));
    const rest = await walk(t.app, '/api/search/posts', 'posts', postSchema, {
      limit: 2,
      query: { q: 'osprey' },
      cursor: first.cursor ?? '',
    });
    expect(idsOf(rest.items)).toEqual(all.slice(2));
    expect(await searchIds(t.app, 'osprey')).toEqual(all);
  });

  it('are not what a viewer who hides members is answered', async () => {
    const [alices, bobs] = await write('heron by alice', 'heron by bob');
    expect(await searchIds(t.app, 'heron')).toEqual(newestFirst([alices, bobs]));
    await mute(t.app, alice, bob);
    expect(await postIdsAt(t.app, '/api/search/posts', alice, { q: 'heron' })).toEqual([
      alices?._id,
    ]);
    await unmute(t.app, alice, bob);
    expect(await postIdsAt(t.app, '/api/search/posts', alice, { q: 'heron' })).toEqual(
      newestFirst([alices, bobs]),
    );
  });

  // PostgreSQL searches anew every time: nothing is kept there.
  it.skipIf(testDatabaseKind() !== 'sqlite')(
    "kept by another process are dropped when the relay hands on another's edits and deletions",
    async () => {
      // Another process's pages, over the same database, told of changes only by events.
      const cards = createPostViewCache({
        reads: t.app.reads,
        max: 100,
        compactMax: 0,
        authors: { of: () => Promise.resolve([]) },
      });
      const elsewhere = createSearchFirstPages({
        reads: t.app.reads,
        max: 100,
        rewrites: cards.rewrites,
      });
      const [edited, deleted] = await write('plover as written', 'plover soon gone');
      const terms = [{ kind: 'word', word: 'plover' }] as const;
      const found = async () => (await elsewhere.read(terms, 20)).map((post) => post.id);
      expect(await found()).toEqual(newestFirst([edited, deleted]));

      const edit = (postId: string): PublishedEvent => ({
        id: 1,
        createdAt: Date.now(),
        type: 'post.edited',
        payload: {
          postId,
          authorId: alice.user._id,
          previousMediaURL: null,
          previousMediaURLs: [],
        },
      });
      const deletion = (postId: string): PublishedEvent => ({
        id: 2,
        createdAt: Date.now(),
        type: 'post.deleted',
        payload: { postId, authorId: bob.user._id, mediaURL: null, mediaURLs: [] },
      });
      await editPost(t.app, alice.token, edited?._id ?? '', 'sandpiper now');
      // Kept, until the event arrives.
      expect(await found()).toEqual(newestFirst([edited, deleted]));
      dropViews(cards, edit(edited?._id ?? ''));
      expect(await found()).toEqual([deleted?._id]);

      await write('plover after');
      expect((await deletePost(t.app, bob.token, deleted?._id ?? '')).statusCode).toBe(201);
      dropViews(cards, deletion(deleted?._id ?? ''));
      expect(await found()).toHaveLength(1);
      expect(await found()).not.toContain(deleted?._id);
    },
  );
});
