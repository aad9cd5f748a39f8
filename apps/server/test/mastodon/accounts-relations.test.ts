import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMembers } from '../social/social-helpers';
import { createListeningApp, type ListeningApp } from './mastodon-helpers';

/** The `rel="next"` address of a Link header, or null. */
function nextOf(link: string | null): string | null {
  const match = /<([^>]+)>;\s*rel="next"/.exec(link ?? '');
  return match?.[1] ?? null;
}

describe('Mastodon account relationships', () => {
  let t: ListeningApp;

  beforeAll(async () => {
    t = await createListeningApp();
  });
  afterAll(() => t.close());

  it('follows and unfollows idempotently, answering the Relationship both ways', async () => {
    const [ana, bea] = await createMembers(t.app, 2);
    const asAna = t.client(ana.token).v1.accounts.$select(bea.user._id);
    const first = await asAna.follow();
    expect(first).toMatchObject({ id: bea.user._id, following: true, followedBy: false });
    const twice = await asAna.follow();
    expect(twice).toMatchObject({ following: true });
    expect((await t.client().v1.accounts.$select(bea.user._id).fetch()).followersCount).toBe(1);

    const [fromBea] = await t
      .client(bea.token)
      .v1.accounts.relationships.fetch({ id: [ana.user._id] });
    expect(fromBea).toMatchObject({ id: ana.user._id, following: false, followedBy: true });

    expect(await asAna.unfollow()).toMatchObject({ following: false });
    expect(await asAna.unfollow()).toMatchObject({ following: false });
    expect((await t.client().v1.accounts.$select(bea.user._id).fetch()).followersCount).toBe(0);
  });

  it('answers relationships for several ids, leaving out unknown ones', async () => {
    const [ana, bea, cai] = await createMembers(t.app, 3);
    await t.client(ana.token).v1.accounts.$select(bea.user._id).follow();
    await t.client(cai.token).v1.accounts.$select(ana.user._id).follow();
    const relationships = await t.client(ana.token).v1.accounts.relationships.fetch({
      id: [bea.user._id, cai.user._id, '00000000000000000000000000'],
    });
    expect(relationships.map((r) => [r.id, r.following, r.followedBy])).toEqual([
      [bea.user._id, true, false],
      [cai.user._id, false, true],
    ]);
  });

  it('blocks: the follows end both ways, the list shows them, twice changes nothing', async () => {
    const [ana, bea] = await createMembers(t.app, 2);
    await t.client(ana.token).v1.accounts.$select(bea.user._id).follow();
    await t.client(bea.token).v1.accounts.$select(ana.user._id).follow();

    const blocked = await t.client(ana.token).v1.accounts.$select(bea.user._id).block();
    expect(blocked).toMatchObject({ blocking: true, following: false, followedBy: false });
    expect(await t.client(ana.token).v1.accounts.$select(bea.user._id).block()).toMatchObject({
      blocking: true,
    });
    const list = await t.client(ana.token).v1.blocks.list();
    expect(list.map((account) => account.id)).toEqual([bea.user._id]);

    // The blocked member no longer finds the one who blocked them, as in Perch.
    const hidden = await fetch(`${t.url}/api/v1/accounts/${ana.user._id}`, {
      headers: { authorization: `Bearer ${bea.token}` },
    });
    expect(hidden.status).toBe(404);
    await expect(
      t.client(bea.token).v1.accounts.$select(ana.user._id).follow(),
    ).rejects.toMatchObject({ statusCode: 404 });
    const fromBea = await t
      .client(bea.token)
      .v1.accounts.relationships.fetch({ id: [ana.user._id] });
    expect(fromBea).toEqual([]);

    const unblocked = await t.client(ana.token).v1.accounts.$select(bea.user._id).unblock();
    expect(unblocked).toMatchObject({ blocking: false, following: false });
    expect(await t.client(ana.token).v1.blocks.list()).toEqual([]);
  });

  it('mutes and unmutes, idempotently, with the mutes list', async () => {
    const [ana, bea] = await createMembers(t.app, 2);
    const asAna = t.client(ana.token).v1.accounts.$select(bea.user._id);
    expect(await asAna.mute()).toMatchObject({ muting: true, blocking: false });
    expect(await asAna.mute()).toMatchObject({ muting: true });
    expect((await t.client(ana.token).v1.mutes.list()).map((a) => a.id)).toEqual([bea.user._id]);
    expect(await asAna.unmute()).toMatchObject({ muting: false });
    expect(await asAna.unmute()).toMatchObject({ muting: false });
    expect(await t.client(ana.token).v1.mutes.list()).toEqual([]);
  });

  it('answers follow requests as an empty list: every follow is accepted at once', async () => {
    const [ana] = await createMembers(t.app, 1);
    expect(await t.client(ana.token).v1.followRequests.list()).toEqual([]);
  });

  it("pages a member's followers and following with Link headers, newest first", async () => {
    const [star, fan, ...fans] = await createMembers(t.app, 5);
    fans.unshift(fan);
    for (const fan of fans) await t.client(fan.token).v1.accounts.$select(star.user._id).follow();
    const newestFirst = fans.map((fan) => fan.user._id).reverse();

    const first = await fetch(`${t.url}/api/v1/accounts/${star.user._id}/followers?limit=2`);
    expect(first.status).toBe(200);
    const firstPage = (await first.json()) as { id: string }[];
    expect(firstPage.map((a) => a.id)).toEqual(newestFirst.slice(0, 2));
    const next = nextOf(first.headers.get('link'));
    expect(next).toMatch(new RegExp(`^${t.url}/api/v1/accounts/${star.user._id}/followers\\?`));
    expect(new URL(next ?? t.url).searchParams.get('limit')).toBe('2');

    const ids: string[] = [];
    for await (const page of t.client().v1.accounts.$select(star.user._id).followers.list({
      limit: 2,
    })) {
      ids.push(...page.map((account) => account.id));
    }
    expect(ids).toEqual(newestFirst);

    const last = await fetch(`${t.url}/api/v1/accounts/${star.user._id}/followers?limit=4`);
    expect(last.headers.get('link')).toBeNull();

    const following = await t.client().v1.accounts.$select(fan.user._id).following.list();
    expect(following.map((a) => a.id)).toEqual([star.user._id]);
  });

  it('leaves out of follower lists the members blocked either way', async () => {
    const [star, ana, bea] = await createMembers(t.app, 3);
    await t.client(ana.token).v1.accounts.$select(star.user._id).follow();
    await t.client(bea.token).v1.accounts.$select(star.user._id).follow();
    const viewer = (await createMembers(t.app, 1))[0];
    await t.client(viewer.token).v1.accounts.$select(ana.user._id).block();
    const seen = await t.client(viewer.token).v1.accounts.$select(star.user._id).followers.list();
    expect(seen.map((a) => a.id)).toEqual([bea.user._id]);
  });
});
