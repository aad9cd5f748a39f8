import {
  QuoteErrors,
  postMutationResponseSchema,
  type Post,
  type PostQuote,
  type QuotedPost,
} from '@perch/contract';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/platform/db/schema';
import { createPostPresenter } from '../../src/read-model/post/presenter';
import { jsonOf, unzip } from '../account/account-helpers';
import { drain } from '../events/event-helpers';
import { rssOf } from '../feeds/feed-helpers';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import { groupsOf } from '../notifications/notification-helpers';
import { readPage, setPrivacy, textOf } from '../pages/pages-helpers';
import { block, mute, unblock, unmute } from '../safety/safety-helpers';
import {
  MINIMAL,
  UNKNOWN_ID,
  bodyOf,
  createPost,
  deletePost,
  expectError,
  fetchPost,
  postRequest,
} from './social-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function quote(member: Member, quoteId: string, postData: Record<string, unknown> = {}) {
  const response = await postRequest(
    t.app,
    member.token,
    { content: `quoting ${quoteId}`, quoteId, ...postData },
    MINIMAL,
  );
  return bodyOf(postMutationResponseSchema, response, 201).post;
}

/** The quote's embedded post, failing unless it is available. */
function embeddedOf(post: Post | undefined): QuotedPost {
  expect(post?.quote?.state).toBe('available');
  return (post?.quote as Extract<PostQuote, { state: 'available' }>).post;
}

/** The post as the latest-posts list answers it to `member` (or a visitor). */
async function listed(postId: string, member?: Member): Promise<Post | undefined> {
  const response = await call(t.app, {
    method: 'GET',
    url: '/api/posts?sort=latest&limit=50',
    token: member?.token,
  });
  return response.json<{ posts: Post[] }>().posts.find((post) => post._id === postId);
}

const storedQuoteId = async (postId: string) =>
  (
    await t.app.db
      .selectFrom('posts')
      .select('quote_id')
      .where('id', '=', postId)
      .executeTakeFirstOrThrow()
  ).quote_id;

describe('quote posts', () => {
  it('embeds the quoted post in the answer, the post, and lists, for every reader', async () => {
    const [ana, bo] = [await createMember(t.app), await createMember(t.app)];
    const original = await postRequest(
      t.app,
      ana.token,
      { content: 'Birds #perch', contentWarning: 'wings', mediaURL: null },
      MINIMAL,
    );
    const quoted = bodyOf(postMutationResponseSchema, original, 201).post;
    const made = await quote(bo, quoted._id, { content: 'Look at this' });

    const embedded = embeddedOf(made);
    expect(embedded).toEqual({
      _id: quoted._id,
      id: quoted._id,
      author: quoted.author,
      content: 'Birds #perch',
      entities: quoted.entities,
      mediaURL: null,
      mediaAlt: null,
      contentWarning: 'wings',
      sensitive: true,
      createdAt: quoted.createdAt,
      quoteId: null,
    });
    expect(await storedQuoteId(made._id)).toBe(quoted._id);
    expect(embeddedOf(await fetchPost(t.app, made._id, ana.token))).toEqual(embedded);
    expect(embeddedOf(await fetchPost(t.app, made._id))).toEqual(embedded);
    expect(embeddedOf(await listed(made._id, bo))).toEqual(embedded);
    // A post that quotes nothing says so.
    expect((await fetchPost(t.app, quoted._id)).quote).toBeNull();
  });

  it('shows the quoted post as it is now: edited, then unavailable once deleted', async () => {
    const [ana, bo] = [await createMember(t.app), await createMember(t.app)];
    const quoted = await createPost(t.app, ana.token, 'first words');
    const made = await quote(bo, quoted._id);
    // Read twice, so that both posts' views are cached.
    await fetchPost(t.app, made._id, bo.token);
    expect(embeddedOf(await fetchPost(t.app, made._id, bo.token)).content).toBe('first words');

    const edit = await call(t.app, {
      method: 'POST',
      url: `/api/posts/edit/${quoted._id}`,
      token: ana.token,
      payload: { postData: { content: 'second words' } },
      headers: MINIMAL,
    });
    expect(edit.statusCode).toBe(201);
    expect(embeddedOf(await fetchPost(t.app, made._id, bo.token)).content).toBe('second words');

    expect((await deletePost(t.app, ana.token, quoted._id, MINIMAL)).statusCode).toBe(201);
    const after = await fetchPost(t.app, made._id, bo.token);
    expect(after.quote).toEqual({ state: 'unavailable' });
    expect((await listed(made._id))?.quote).toEqual({ state: 'unavailable' });
    // The quoting post keeps the quoted id: it is what says "unavailable".
    expect(await storedQuoteId(made._id)).toBe(quoted._id);
  });

  it('shows the quote as unavailable to a reader who blocks or mutes its author', async () => {
    const [ana, bo, cy] = [
      await createMember(t.app),
      await createMember(t.app),
      await createMember(t.app),
    ];
    const quoted = await createPost(t.app, ana.token, 'by ana');
    const made = await quote(bo, quoted._id);
    await fetchPost(t.app, made._id, cy.token);
    expect(embeddedOf(await fetchPost(t.app, made._id, cy.token)).id).toBe(quoted._id);

    await mute(t.app, cy, ana);
    expect((await fetchPost(t.app, made._id, cy.token)).quote).toEqual({ state: 'unavailable' });
    expect((await listed(made._id, cy))?.quote).toEqual({ state: 'unavailable' });
    // Another reader still sees it: the reader's relations are theirs alone.
    expect(embeddedOf(await fetchPost(t.app, made._id, bo.token)).id).toBe(quoted._id);
    await unmute(t.app, cy, ana);
    expect(embeddedOf(await fetchPost(t.app, made._id, cy.token)).id).toBe(quoted._id);

    await block(t.app, cy, ana);
    expect((await fetchPost(t.app, made._id, cy.token)).quote).toEqual({ state: 'unavailable' });
    await unblock(t.app, cy, ana);
    // Blocked by the quoted author: the same.
    await block(t.app, ana, cy);
    expect((await fetchPost(t.app, made._id, cy.token)).quote).toEqual({ state: 'unavailable' });
    expect(embeddedOf(await listed(made._id, bo)).id).toBe(quoted._id);
  });

  it('refuses a quote across a block either way, and of a post that does not exist', async () => {
    const [ana, bo] = [await createMember(t.app), await createMember(t.app)];
    const quoted = await createPost(t.app, ana.token, 'not for bo');
    await block(t.app, ana, bo);
    const refused = await postRequest(t.app, bo.token, { content: 'hm', quoteId: quoted._id });
    expectError(refused, 403, QuoteErrors.blocked);
    await unblock(t.app, ana, bo);
    await block(t.app, bo, ana);
    const own = await postRequest(t.app, bo.token, { content: 'hm', quoteId: quoted._id });
    expectError(own, 403, QuoteErrors.blocked);

    const unknown = await postRequest(t.app, bo.token, { content: 'hm', quoteId: UNKNOWN_ID });
    expectError(unknown, 404, QuoteErrors.notFound);
    const malformed = await postRequest(t.app, bo.token, { content: 'hm', quoteId: 7 });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json<{ errors: string[] }>().errors.join(' ')).toMatch(/quoteId/);
    const count = await t.app.db
      .selectFrom('posts')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('user_id', '=', bo.user._id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('notifies the quoted author once, and not when they mute the quoter', async () => {
    const [ana, bo, cy] = [
      await createMember(t.app),
      await createMember(t.app),
      await createMember(t.app),
    ];
    const quoted = await createPost(t.app, ana.token, 'notice me');
    const made = await quote(bo, quoted._id);
    await quote(ana, quoted._id); // Their own quote tells no one.
    await drain(t.app);
    const groups = (await groupsOf(t.app, ana)).filter((group) => group.kind === 'quote');
    expect(groups).toHaveLength(1);
    expect(groups[0]?.actors.map((actor) => actor._id)).toEqual([bo.user._id]);
    expect(groups[0]?.post?._id).toBe(made._id);

    await mute(t.app, ana, cy);
    await quote(cy, quoted._id);
    const after = (await groupsOf(t.app, ana)).filter((group) => group.kind === 'quote');
    expect(after.map((group) => group.post?._id)).toEqual([made._id]);
  });

  it('embeds one level: a quote of a quote names the inner quote by id', async () => {
    const [ana, bo, cy] = [
      await createMember(t.app),
      await createMember(t.app),
      await createMember(t.app),
    ];
    const first = await createPost(t.app, ana.token, 'first');
    const second = await quote(bo, first._id);
    const third = await quote(cy, second._id);
    const embedded = embeddedOf(third);
    expect(embedded.id).toBe(second._id);
    expect(embedded.quoteId).toBe(first._id);
    expect(embedded).not.toHaveProperty('quote');
    expect(embeddedOf(await fetchPost(t.app, third._id)).quoteId).toBe(first._id);
  });

  it('keeps the quote through an edit, and exports it', async () => {
    const [ana, bo] = [await createMember(t.app), await createMember(t.app)];
    const quoted = await createPost(t.app, ana.token, 'kept');
    const made = await quote(bo, quoted._id);
    const edit = await call(t.app, {
      method: 'POST',
      url: `/api/posts/edit/${made._id}`,
      token: bo.token,
      payload: { postData: { content: 'changed', quoteId: null } },
      headers: MINIMAL,
    });
    expect(embeddedOf(bodyOf(postMutationResponseSchema, edit, 201).post).id).toBe(quoted._id);

    const exported = await call(t.app, {
      method: 'GET',
      url: '/api/users/me/export',
      token: bo.token,
    });
    const posts = jsonOf(await unzip(exported.rawPayload), 'posts.json') as { quoteId: unknown }[];
    expect(posts.map((post) => post.quoteId)).toEqual([quoted._id]);
  });

  it('shows the quote on the public page and in the feed', async () => {
    const [ana, bo] = [await createMember(t.app), await createMember(t.app)];
    const quoted = await createPost(t.app, ana.token, 'public words');
    const made = await quote(bo, quoted._id, { content: 'see this' });
    const quotedPath = `/@${ana.user.username}/${quoted._id}`;

    const page = await readPage(t.app, `/@${bo.user.username}/${made._id}`);
    const block = page.document.querySelector('blockquote.public-quote');
    expect(block?.getAttribute('cite')).toBe(quotedPath);
    expect(textOf(block)).toContain('public words');

    const feed = rssOf(await call(t.app, { method: 'GET', url: `/@${bo.user.username}.rss` }));
    const item = feed.item.find((entry) => entry.link.endsWith(made._id));
    expect(item?.['content:encoded']).toContain(`Quoting <a href="http://`);
    expect(item?.['content:encoded']).toContain(quotedPath);

    // An author who keeps their pages from people who are not signed in is not shown.
    await setPrivacy(t.app, ana.token, { publicProfile: false });
    const hidden = await readPage(t.app, `/@${bo.user.username}/${made._id}`);
    expect(textOf(hidden.document.querySelector('blockquote.public-quote'))).toBe(
      'This post is unavailable.',
    );
    expect(hidden.response.body).not.toContain('public words');
  });
});

/** The database handle, counting the queries sent through it. */
function counting(db: Kysely<Database>): { db: Kysely<Database>; sent: () => number } {
  let sent = 0;
  const proxy = new Proxy(db, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (property === 'executeQuery') {
        return (...args: Parameters<Kysely<Database>['executeQuery']>) => {
          sent += 1;
          return target.executeQuery(...args);
        };
      }
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  return { db: proxy, sent: () => sent };
}

describe('quotes in a page of posts', () => {
  it('are read together: twenty quotes cost one read of the quoted posts', async () => {
    const [ana, bo] = [await createMember(t.app), await createMember(t.app)];
    const ids: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const quoted = await createPost(t.app, ana.token, `quoted ${i}`);
      ids.push((await quote(bo, quoted._id))._id);
    }
    const reads = counting(t.app.db);
    const presenter = createPostPresenter({
      reads: reads.db,
      maxViews: 100,
      maxCompactViews: 0,
      maxViewerStateIds: 100,
      maxViewerStatesPerMember: 100,
      authors: {
        of: async (authorIds) =>
          [ana.user, bo.user].filter((u) => authorIds.includes(u._id)).map(stubOf),
      },
      hiddenFor: () => Promise.resolve([]),
    });
    const posts = await presenter.packMany(ids, { id: ana.user._id, username: ana.user.username });
    expect(posts.map((post) => embeddedOf(post).content)).toEqual(ids.map((_, i) => `quoted ${i}`));
    // The quoting posts, the quoted posts, and the reader's state: likes, bookmarks, reposts and
    // poll votes, each read once for the page, however many posts quote.
    expect(reads.sent()).toBeGreaterThanOrEqual(2);
    expect(reads.sent()).toBeLessThanOrEqual(6);
  });
});

function stubOf(user: Member['user']) {
  return {
    _id: user._id,
    id: user._id,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    avatarURL: user.avatarURL ?? null,
  };
}
