import type { Post } from '@perch/contract';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepOrphanMedia } from '../../src/modules/media/media.service';
import { jsonOf, unzip } from '../account/account-helpers';
import { drain, lastOutboxId, outboxAfter } from '../events/event-helpers';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import { jpegWithGps } from '../media/fixtures';
import { bytes, html, ogPage, startLinkServer, type LinkServer } from './link-server';

let site: LinkServer;
let t: TestApp;
let alice: Member;

const MEDIA_URL = /^\/media\/[0-9a-f]{2}\/[0-9a-f]{64}\.webp$/;

beforeAll(async () => {
  const photo = await jpegWithGps(800, 420);
  site = await startLinkServer({
    '/article': html(
      ogPage({
        title: 'Perches of the north',
        description: 'Where they sit.',
        image: '/photo.jpg',
      }),
    ),
    '/other': html(ogPage({ title: 'Another page', description: 'Elsewhere.' })),
    '/photo.jpg': bytes(photo, 'image/jpeg'),
    '/bare': html('<!doctype html><html><head></head><body><p>nothing to say</p></body></html>'),
    '/huge': html(`<html><head>${' '.repeat(1024 * 1024 + 10)}<title>Huge</title></head></html>`),
    // Headers at once, then the body never ends: the fetch's time budget ends it.
    '/slow': (response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<html><head>');
    },
  });
  t = await createTestApp({ linkPreviews: true, linkPreviewAllowPrivate: true });
  alice = await createMember(t.app);
});

afterAll(async () => {
  await t.close();
  await site.close();
});

/** The relay's consumers, then the card worker, then the events the worker recorded. */
async function settle(app: FastifyInstance): Promise<void> {
  await drain(app);
  await app.services.previewCards?.drain();
  await drain(app);
}

async function post(content: string): Promise<Post> {
  const response = await call(t.app, {
    method: 'POST',
    url: '/api/posts',
    token: alice.token,
    payload: { postData: { content } },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ post: Post }>().post;
}

async function edit(postId: string, content: string): Promise<Post> {
  const response = await call(t.app, {
    method: 'POST',
    url: `/api/posts/edit/${postId}`,
    token: alice.token,
    payload: { postData: { content } },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ post: Post }>().post;
}

async function read(postId: string): Promise<Post> {
  const response = await call(t.app, { method: 'GET', url: `/api/posts/${postId}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ post: Post }>().post;
}

describe('preview cards', () => {
  it("shows the first link's OpenGraph card, its image stored and re-encoded by Perch", async () => {
    const before = await lastOutboxId(t.app);
    const made = await post(`Look: ${site.origin}/article, and ${site.origin}/other too.`);
    // Never fetched on the request's path.
    expect(made.card).toBeNull();

    await settle(t.app);
    const { card } = await read(made.id);
    expect(card).toMatchObject({
      url: `${site.origin}/article`,
      title: 'Perches of the north',
      description: 'Where they sit.',
      siteName: 'Perch Field Notes',
      imageWidth: 800,
      imageHeight: 420,
    });
    expect(card?.imageURL).toMatch(MEDIA_URL);
    expect(site.hits.get('/photo.jpg')).toBe(1);

    const image = await call(t.app, { method: 'GET', url: card?.imageURL ?? '' });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    const meta = await sharp(image.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();

    const attached = (await outboxAfter(t.app, before)).filter(
      (event) => event.type === 'post.card.attached',
    );
    expect(attached.map((event) => event.payload)).toEqual([
      { postId: made.id, authorId: alice.user._id, card },
    ]);
  });

  it("puts each post's card in the account export", async () => {
    const made = await post(`Exported ${site.origin}/other`);
    await settle(t.app);
    const response = await call(t.app, {
      method: 'GET',
      url: '/api/users/me/export',
      token: alice.token,
    });
    expect(response.statusCode).toBe(200);
    const posts = jsonOf(await unzip(response.rawPayload), 'posts.json') as Post[];
    expect(posts.find((exported) => exported.id === made.id)?.card).toEqual(
      (await read(made.id)).card,
    );
    expect(posts.find((exported) => exported.id === made.id)?.card?.title).toBe('Another page');
  });

  it('fetches a URL once: a second post linking to it gets the cached card', async () => {
    const pageHits = site.hits.get('/article') ?? 0;
    const made = await post(`Again ${site.origin}/article`);
    await settle(t.app);
    expect((await read(made.id)).card?.title).toBe('Perches of the north');
    expect(site.hits.get('/article')).toBe(pageHits);
  });

  it('keeps the image of a card when the sweep runs and when a post showing it goes', async () => {
    const made = await post(`Once more ${site.origin}/article`);
    await settle(t.app);
    const imageURL = (await read(made.id)).card?.imageURL ?? '';
    const removed = await call(t.app, {
      method: 'DELETE',
      url: `/api/posts/${made.id}`,
      token: alice.token,
    });
    expect(removed.statusCode).toBe(201);
    await drain(t.app);
    await sweepOrphanMedia(t.app.db, t.app.mediaStore, { olderThanMs: -60_000 });
    expect((await call(t.app, { method: 'GET', url: imageURL })).statusCode).toBe(200);
  });

  it('replaces the card when an edit changes the first link, and removes it with the link', async () => {
    const made = await post(`Read ${site.origin}/article`);
    await settle(t.app);
    expect((await read(made.id)).card?.title).toBe('Perches of the north');

    // The old link's card goes with the edit; the new one's comes from the worker.
    expect((await edit(made.id, `Read ${site.origin}/other instead`)).card).toBeNull();
    await settle(t.app);
    const replaced = await read(made.id);
    expect(replaced.card).toMatchObject({ url: `${site.origin}/other`, title: 'Another page' });
    expect(replaced.card?.imageURL).toBeNull();

    // An edit that keeps the link keeps the card.
    expect((await edit(made.id, `Still ${site.origin}/other`)).card?.title).toBe('Another page');

    expect((await edit(made.id, 'No link any more')).card).toBeNull();
    await settle(t.app);
    expect((await read(made.id)).card).toBeNull();
  });

  it('shows no card for a page without metadata, and remembers that for a while', async () => {
    const first = await post(`${site.origin}/bare`);
    await settle(t.app);
    expect((await read(first.id)).card).toBeNull();
    const second = await post(`${site.origin}/bare again`);
    await settle(t.app);
    expect((await read(second.id)).card).toBeNull();
    expect(site.hits.get('/bare')).toBe(1);
    const row = await t.app.db
      .selectFrom('preview_cards')
      .select(['error'])
      .where('url', '=', `${site.origin}/bare`)
      .executeTakeFirstOrThrow();
    expect(row.error).toBe('no-metadata');
  });

  it('gives up on a slow or huge page and moves on to the next link', async () => {
    const slow = await post(`${site.origin}/slow`);
    const huge = await post(`${site.origin}/huge`);
    const fine = await post(`${site.origin}/other`);
    await settle(t.app);
    expect((await read(slow.id)).card).toBeNull();
    expect((await read(huge.id)).card).toBeNull();
    expect((await read(fine.id)).card?.title).toBe('Another page');
    const errors = await t.app.db
      .selectFrom('preview_cards')
      .select(['url', 'error'])
      .where('url', 'in', [`${site.origin}/slow`, `${site.origin}/huge`])
      .orderBy('url')
      .execute();
    expect(errors).toEqual([
      { url: `${site.origin}/huge`, error: 'too-large' },
      { url: `${site.origin}/slow`, error: 'timeout' },
    ]);
  }, 20_000);
});

describe('preview cards without LINK_PREVIEW_ALLOW_PRIVATE', () => {
  let guarded: TestApp;
  let bob: Member;

  beforeAll(async () => {
    guarded = await createTestApp({ linkPreviews: true });
    bob = await createMember(guarded.app);
  });
  afterAll(async () => {
    await guarded.close();
  });

  it('refuses a private address: no request, no card, no crash', async () => {
    const hits = site.hits.get('/article') ?? 0;
    const response = await call(guarded.app, {
      method: 'POST',
      url: '/api/posts',
      token: bob.token,
      payload: { postData: { content: `${site.origin}/article` } },
    });
    const made = response.json<{ post: Post }>().post;
    await settle(guarded.app);
    const read = await call(guarded.app, { method: 'GET', url: `/api/posts/${made.id}` });
    expect(read.json<{ post: Post }>().post.card).toBeNull();
    expect(site.hits.get('/article')).toBe(hits);
    const row = await guarded.app.db
      .selectFrom('preview_cards')
      .select('error')
      .executeTakeFirstOrThrow();
    expect(row.error).toBe('refused-address');
  });
});
