import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../factories';
import { block } from '../safety/safety-helpers';
import { createMembers, uploadImage, UNKNOWN_ID } from '../social/social-helpers';
import { createListeningApp, type ListeningApp } from './mastodon-helpers';

describe('Mastodon statuses', () => {
  let t: ListeningApp;
  let ana: Member;
  let ben: Member;
  let cy: Member;

  beforeAll(async () => {
    t = await createListeningApp();
    [ana, ben, cy] = await createMembers(t.app, 3);
  });
  afterAll(() => t.close());

  const raw = (path: string, token: string | undefined, init: RequestInit = {}) =>
    fetch(`${t.url}${path}`, {
      ...init,
      headers: {
        ...(token && { authorization: `Bearer ${token}` }),
        ...(init.headers as Record<string, string> | undefined),
      },
    });

  it('publishes a status with tags, mentions and a warning, and reads it back', async () => {
    const client = t.client(ana.token);
    const text = `Hello #Birds and @${ben.user.username}`;
    const status = await client.v1.statuses.create({
      status: text,
      spoilerText: 'spoilers',
      sensitive: true,
    });
    expect(status).toMatchObject({
      visibility: 'public',
      spoilerText: 'spoilers',
      sensitive: true,
      inReplyToId: null,
      repliesCount: 0,
      favourited: false,
      reblogged: false,
      bookmarked: false,
      pinned: false,
      account: { id: ana.user._id, acct: ana.user.username },
      tags: [{ name: 'birds', url: `${t.url}/tags/birds` }],
      mentions: [{ id: ben.user._id, acct: ben.user.username }],
    });
    expect(status.id).toMatch(/^[0-9A-Z]{26}$/);
    // The post's public page, as Perch serves it.
    expect(status.url).toBe(`${t.url}/@${ana.user.username}/${status.id}`);
    expect(status.content).toContain(`<a href="${t.url}/tags/birds" class="hashtag" rel="tag">`);
    expect(status.content).toContain(`href="${t.url}/@${ben.user.username}"`);
    const read = await t.client(ben.token).v1.statuses.$select(status.id).fetch();
    expect(read.id).toBe(status.id);
    expect(read.content).toBe(status.content);
    // `pinned` is the author's to see only.
    expect(read.pinned).toBeUndefined();
    const anonymous = await t.client().v1.statuses.$select(status.id).fetch();
    expect(anonymous.favourited).toBeUndefined();
  });

  it('takes form bodies and honours Idempotency-Key', async () => {
    const body = new URLSearchParams({ status: 'from a form', 'poll[expires_in]': '3600' });
    body.append('poll[options][]', 'yes');
    body.append('poll[options][]', 'no');
    body.append('poll[multiple]', 'true');
    const send = () =>
      raw('/api/v1/statuses', ana.token, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'idempotency-key': 'form-key-0001',
        },
      });
    const first = await send();
    expect(first.status).toBe(200);
    const made = (await first.json()) as { id: string; poll: unknown };
    expect(made.poll).toMatchObject({
      multiple: true,
      expired: false,
      options: [{ title: 'yes' }, { title: 'no' }],
      voted: false,
      own_votes: [],
    });
    const again = (await (await send()).json()) as { id: string };
    expect(again.id).toBe(made.id);
  });

  it('maps an album, and accepts the ids its attachments carry', async () => {
    const urls = [await uploadImage(t.app, ana.token), await uploadImage(t.app, ana.token)];
    const client = t.client(ana.token);
    const status = await client.v1.statuses.create({ status: 'album', mediaIds: urls });
    expect(status.mediaAttachments).toHaveLength(2);
    const [first] = status.mediaAttachments;
    expect(first).toMatchObject({
      type: 'image',
      url: `${t.url}${urls[0]}`,
      description: null,
      meta: { original: { width: 16, height: 16, aspect: 1, size: '16x16' } },
    });
    expect(first?.previewUrl).toMatch(/\.thumb\./);
    expect(first?.blurhash).toEqual(expect.any(String));
    const ids = status.mediaAttachments.map((attachment) => attachment.id);
    const again = await client.v1.statuses.create({ status: 'same images', mediaIds: ids });
    expect(again.mediaAttachments.map((attachment) => attachment.url)).toEqual(
      urls.map((url) => `${t.url}${url}`),
    );
  });

  it('answers 422 for an empty status and 404 for unknown or hidden ones', async () => {
    const empty = await raw('/api/v1/statuses', ana.token, {
      method: 'POST',
      body: JSON.stringify({ status: '  ' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as { error: string }).error).toMatch(/text or an image/);
    for (const id of [UNKNOWN_ID, 'nonsense', `${UNKNOWN_ID}-${UNKNOWN_ID}`]) {
      const missing = await raw(`/api/v1/statuses/${id}`, ana.token);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ error: 'Record not found' });
    }
    const [dee, eve] = await createMembers(t.app, 2);
    const hidden = await t.client(dee.token).v1.statuses.create({ status: 'not for eve' });
    await block(t.app, dee, eve);
    await expect(t.client(eve.token).v1.statuses.$select(hidden.id).fetch()).rejects.toMatchObject({
      statusCode: 404,
      message: 'Record not found',
    });
  });

  it('favourites, bookmarks and pins idempotently, and lists who favourited', async () => {
    const mine = await t.client(ana.token).v1.statuses.create({ status: 'like me' });
    const bens = t.client(ben.token).v1.statuses.$select(mine.id);
    expect(await bens.favourite()).toMatchObject({ favourited: true, favouritesCount: 1 });
    expect(await bens.favourite()).toMatchObject({ favourited: true, favouritesCount: 1 });
    expect(await bens.bookmark()).toMatchObject({ bookmarked: true });
    expect(await bens.bookmark()).toMatchObject({ bookmarked: true });
    const favourites = await t.client(ben.token).v1.favourites.list();
    expect(favourites.map((status) => status.id)).toEqual([mine.id]);
    const likers = await t.client(cy.token).v1.statuses.$select(mine.id).favouritedBy.list();
    expect(likers.map((account) => account.id)).toEqual([ben.user._id]);
    const [blocker] = await createMembers(t.app, 1);
    await block(t.app, blocker, ben);
    const hidden = await t.client(blocker.token).v1.statuses.$select(mine.id).favouritedBy.list();
    expect(hidden).toEqual([]);
    expect(await bens.unfavourite()).toMatchObject({ favourited: false, favouritesCount: 0 });
    expect(await bens.unfavourite()).toMatchObject({ favourited: false, favouritesCount: 0 });
    const bookmarks = await t.client(ben.token).v1.bookmarks.list();
    expect(bookmarks.map((status) => status.id)).toContain(mine.id);
    expect(await bens.unbookmark()).toMatchObject({ bookmarked: false });

    const own = t.client(ana.token).v1.statuses.$select(mine.id);
    expect(await own.pin()).toMatchObject({ pinned: true });
    expect(await own.pin()).toMatchObject({ pinned: true });
    const pinned = await t.client(ana.token).v1.accounts.$select(ana.user._id).statuses.list({
      pinned: true,
    });
    expect(pinned.map((status) => status.id)).toEqual([mine.id]);
    expect(await own.unpin()).toMatchObject({ pinned: false });
    // Perch's refusal, with its status and words.
    await expect(bens.pin()).rejects.toMatchObject({
      statusCode: 400,
      message: 'You can only pin your own posts.',
    });
  });

  it('reblogs as a wrapper status and unreblogs', async () => {
    const post = await t.client(ana.token).v1.statuses.create({ status: 'boost me' });
    const bens = t.client(ben.token).v1.statuses.$select(post.id);
    const reblog = await bens.reblog();
    expect(reblog.id).not.toBe(post.id);
    expect(reblog).toMatchObject({
      account: { id: ben.user._id },
      content: '',
      url: post.url,
      reblog: { id: post.id, reblogged: true, reblogsCount: 1 },
    });
    // Twice: the same reblog.
    expect((await bens.reblog()).id).toBe(reblog.id);
    const fetched = await t.client(cy.token).v1.statuses.$select(reblog.id).fetch();
    expect(fetched.reblog?.id).toBe(post.id);
    const by = await t.client(cy.token).v1.statuses.$select(post.id).rebloggedBy.list();
    expect(by.map((account) => account.id)).toEqual([ben.user._id]);
    expect(await bens.unreblog()).toMatchObject({ id: post.id, reblogged: false, reblogsCount: 0 });
    expect(await bens.unreblog()).toMatchObject({ id: post.id, reblogged: false });
    // Deleting a reblog undoes it; nobody else may.
    const again = await bens.reblog();
    await expect(t.client(cy.token).v1.statuses.$select(again.id).remove()).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(await t.client(ben.token).v1.statuses.$select(again.id).remove()).toMatchObject({
      id: again.id,
      reblog: { id: post.id },
    });
    expect(await bens.fetch()).toMatchObject({ reblogged: false, reblogsCount: 0 });
  });

  it('replies as comments: context, edit, source and delete', async () => {
    const post = await t.client(ana.token).v1.statuses.create({ status: 'a thread' });
    const reply = await t.client(ben.token).v1.statuses.create({
      status: 'a reply #thread',
      inReplyToId: post.id,
    });
    expect(reply.id).toBe(`${post.id}-${reply.id.slice(27)}`);
    expect(reply).toMatchObject({ inReplyToId: post.id, inReplyToAccountId: ana.user._id });
    const context = await t.client(cy.token).v1.statuses.$select(post.id).context.fetch();
    expect(context.ancestors).toEqual([]);
    expect(context.descendants.map((status) => status.id)).toEqual([reply.id]);
    const up = await t.client(cy.token).v1.statuses.$select(reply.id).context.fetch();
    expect(up.ancestors.map((status) => status.id)).toEqual([post.id]);
    expect((await t.client(ana.token).v1.statuses.$select(post.id).fetch()).repliesCount).toBe(1);

    const bens = t.client(ben.token).v1.statuses.$select(reply.id);
    const edited = await bens.update({ status: 'an edited reply' });
    expect(edited.content).toBe('<p>an edited reply</p>');
    expect(await bens.source.fetch()).toEqual({
      id: reply.id,
      text: 'an edited reply',
      spoilerText: '',
    });
    const removed = await bens.remove();
    expect(removed).toMatchObject({ id: reply.id, text: 'an edited reply' });
    await expect(bens.fetch()).rejects.toMatchObject({ statusCode: 404 });
  });

  it('edits a post, keeps one version in history, and deletes it with its text', async () => {
    const client = t.client(ana.token);
    const post = await client.v1.statuses.create({ status: 'first words', spoilerText: 'cw' });
    const mine = client.v1.statuses.$select(post.id);
    expect(post.editedAt).toBeNull();
    const edited = await mine.update({ status: 'second words', spoilerText: '' });
    expect(edited).toMatchObject({ content: '<p>second words</p>', spoilerText: '' });
    expect(edited.editedAt).toEqual(expect.any(String));
    expect(await mine.source.fetch()).toEqual({
      id: post.id,
      text: 'second words',
      spoilerText: '',
    });
    const history = await mine.history.list();
    expect(history).toHaveLength(1);
    expect(history[0]?.content).toBe('<p>second words</p>');
    await expect(
      t.client(ben.token).v1.statuses.$select(post.id).update({ status: 'hijack' }),
    ).rejects.toMatchObject({
      statusCode: 400,
      message: "Cannot edit a Post doesn't belong to the logged in User.",
    });
    const removed = await mine.remove();
    expect(removed).toMatchObject({ id: post.id, text: 'second words' });
    await expect(mine.fetch()).rejects.toMatchObject({ statusCode: 404 });
  });

  it('renders a quote with the quoted status whole, and a deleted one as deleted', async () => {
    const quoted = await t.client(ben.token).v1.statuses.create({ status: 'quote me' });
    await t.client(cy.token).v1.statuses.$select(quoted.id).favourite();
    const quoting = await t.client(ana.token).v1.statuses.create({
      status: 'look at this',
      quotedStatusId: quoted.id,
    });
    expect(quoting.quote).toMatchObject({
      state: 'accepted',
      quotedStatus: {
        id: quoted.id,
        content: '<p>quote me</p>',
        favouritesCount: 1,
        account: { id: ben.user._id },
      },
    });
    await t.client(ben.token).v1.statuses.$select(quoted.id).remove();
    const after = await t.client(ana.token).v1.statuses.$select(quoting.id).fetch();
    expect(after.quote).toEqual({ state: 'deleted', quotedStatus: null });
  });

  it("lists a member's statuses with only_media and tagged", async () => {
    const [dee] = await createMembers(t.app, 1);
    const client = t.client(dee.token);
    const plain = await client.v1.statuses.create({ status: 'plain #cats' });
    const image = await client.v1.statuses.create({
      status: 'picture',
      mediaIds: [await uploadImage(t.app, dee.token)],
    });
    const statuses = client.v1.accounts.$select(dee.user._id).statuses;
    expect((await statuses.list()).map((s) => s.id)).toEqual([image.id, plain.id]);
    expect((await statuses.list({ onlyMedia: true })).map((s) => s.id)).toEqual([image.id]);
    expect((await statuses.list({ tagged: 'cats' })).map((s) => s.id)).toEqual([plain.id]);
    expect(
      (await statuses.list({ excludeReplies: true, excludeReblogs: true })).map((s) => s.id),
    ).toEqual([image.id, plain.id]);
    const unknown = await raw(`/api/v1/accounts/${UNKNOWN_ID}/statuses`, dee.token);
    expect(unknown.status).toBe(404);
  });
});
