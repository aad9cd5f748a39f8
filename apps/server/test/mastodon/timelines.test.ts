import type { mastodon } from 'masto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drain } from '../events/event-helpers';
import type { Member } from '../factories';
import { block, mute } from '../safety/safety-helpers';
import { createMembers, follow, uploadImage } from '../social/social-helpers';
import { createListeningApp, type ListeningApp } from './mastodon-helpers';

describe('Mastodon timelines', () => {
  let t: ListeningApp;
  let reader: Member;
  let writer: Member;
  let reposter: Member;
  let stranger: Member;

  beforeAll(async () => {
    t = await createListeningApp();
    [reader, writer, reposter, stranger] = await createMembers(t.app, 4);
    await follow(t.app, reader.token, writer.user._id);
    await follow(t.app, reader.token, reposter.user._id);
  });
  afterAll(() => t.close());

  /** GET a page as JSON, with the URL its Link header gives for `rel`. */
  async function page(path: string, token: string) {
    const response = await fetch(path.startsWith('http') ? path : `${t.url}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    const link = response.headers.get('link') ?? '';
    const rel = (name: string) => new RegExp(`<([^>]+)>; rel="${name}"`).exec(link)?.[1] ?? null;
    return {
      ids: ((await response.json()) as { id: string }[]).map((status) => status.id),
      next: rel('next'),
      prev: rel('prev'),
    };
  }

  const post = (member: Member, status: string) =>
    t.client(member.token).v1.statuses.create({ status });

  it('shows a followed member’s repost on Home as a reblog wrapping the post', async () => {
    const original = await post(stranger, 'from outside the follows');
    const reblog = await t.client(reposter.token).v1.statuses.$select(original.id).reblog();
    await drain(t.app);
    const home = await t.client(reader.token).v1.timelines.home.list({ limit: 5 });
    const wrapper = home.find((status) => status.reblog?.id === original.id);
    expect(wrapper).toMatchObject({
      id: reblog.id,
      account: { id: reposter.user._id },
      reblog: { id: original.id, account: { id: stranger.user._id }, reblogsCount: 1 },
    });
    expect(home.filter((status) => status.id === original.id)).toEqual([]);
  });

  it('walks Home with max_id and catches up with min_id, without duplicates or gaps', async () => {
    const written: string[] = [];
    for (let i = 0; i < 11; i += 1) written.unshift((await post(writer, `older ${i}`)).id);
    // Home's timeline takes new posts in after they commit.
    await drain(t.app);
    const seen: string[] = [];
    let next: string | null = '/api/v1/timelines/home?limit=4';
    const first = await page(next, reader.token);
    while (next !== null) {
      const current = await page(next, reader.token);
      seen.push(...current.ids);
      next = current.ids.length > 0 ? current.next : null;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, written.length)).toEqual(written);
    // Every walked id in order, newest first.
    expect([...seen].sort().reverse()).toEqual(seen);

    const newer: string[] = [];
    for (let i = 0; i < 7; i += 1) newer.unshift((await post(writer, `newer ${i}`)).id);
    await drain(t.app);
    const caught: string[] = [];
    let prev: string | null = first.prev;
    expect(prev).toContain(`min_id=${first.ids[0]}`);
    for (let round = 0; round < 10 && prev !== null; round += 1) {
      const current = await page(prev.replace(/limit=\d+/, 'limit=3'), reader.token);
      if (current.ids.length === 0) break;
      expect(current.ids.length).toBeLessThanOrEqual(3);
      // Each page newest first, and newer than all caught before it.
      caught.unshift(...current.ids);
      prev = current.prev;
    }
    expect(caught).toEqual(newer);
    const since = await page(
      `/api/v1/timelines/home?since_id=${first.ids[0]}&limit=2`,
      reader.token,
    );
    expect(since.ids).toEqual(newer.slice(0, 2));
  });

  it('reads the public and tag timelines with pagination and only_media', async () => {
    const tagged: mastodon.v1.Status[] = [];
    for (let i = 0; i < 3; i += 1) tagged.unshift(await post(writer, `#Walk number ${i}`));
    const withImage = await t.client(writer.token).v1.statuses.create({
      status: 'an image #walk',
      mediaIds: [await uploadImage(t.app, writer.token)],
    });
    const all = [withImage.id, ...tagged.map((status) => status.id)];
    const firstPage = await page('/api/v1/timelines/tag/walk?limit=2', reader.token);
    expect(firstPage.ids).toEqual(all.slice(0, 2));
    const second = await page(firstPage.next ?? '', reader.token);
    expect(second.ids).toEqual(all.slice(2, 4));
    const media = await t.client().v1.timelines.tag.$select('walk').list({ onlyMedia: true });
    expect(media.map((status) => status.id)).toEqual([withImage.id]);

    const publicPage = await t.client().v1.timelines.public.list({ limit: 3, local: true });
    expect(publicPage.map((status) => status.id)).toEqual(all.slice(0, 3));
    const below = await t.client().v1.timelines.public.list({ limit: 2, maxId: all[1] });
    expect(below.map((status) => status.id)).toEqual(all.slice(2, 4));
  });

  it('keeps blocked and muted members out of timelines', async () => {
    const [muted, blocker] = await createMembers(t.app, 2);
    await follow(t.app, reader.token, muted.user._id);
    const mutedPost = await post(muted, 'muted words #quiet');
    const blockedPost = await post(blocker, 'blocked words #quiet');
    const visible = await post(writer, 'visible words #quiet');
    await mute(t.app, reader, muted);
    await block(t.app, blocker, reader);
    await drain(t.app);
    const client = t.client(reader.token);
    const ids = async (list: PromiseLike<mastodon.v1.Status[]>) =>
      (await list).map((status) => status.id);
    for (const shown of [
      await ids(client.v1.timelines.home.list({ limit: 40 })),
      await ids(client.v1.timelines.public.list({ limit: 40 })),
      await ids(client.v1.timelines.tag.$select('quiet').list()),
    ]) {
      expect(shown).not.toContain(mutedPost.id);
      expect(shown).not.toContain(blockedPost.id);
    }
    expect(await ids(client.v1.timelines.tag.$select('quiet').list())).toEqual([visible.id]);
    const everyone = await ids(t.client().v1.timelines.tag.$select('quiet').list());
    expect(everyone).toEqual([visible.id, blockedPost.id, mutedPost.id]);
  });

  it('refuses Home without a token', async () => {
    const response = await fetch(`${t.url}/api/v1/timelines/home`);
    expect(response.status).toBe(401);
  });
});
