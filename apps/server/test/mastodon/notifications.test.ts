import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drain } from '../events/event-helpers';
import type { Member } from '../factories';
import { block, mute } from '../safety/safety-helpers';
import { createMembers } from '../social/social-helpers';
import { createListeningApp, type ListeningApp } from './mastodon-helpers';

describe('Mastodon notifications', () => {
  let t: ListeningApp;

  beforeAll(async () => {
    t = await createListeningApp();
  });
  afterAll(() => t.close());

  const raw = (path: string, token: string, init: RequestInit = {}) =>
    fetch(`${t.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}` } });

  /** The member's notifications once everything written so far has been handled. */
  async function notificationsOf(member: Member, params: Record<string, unknown> = {}) {
    await drain(t.app);
    return t.client(member.token).v1.notifications.list(params);
  }

  /** Ben favourites, reblogs and replies to Ana's post and follows her. */
  async function actOn(ana: Member, ben: Member) {
    const post = await t.client(ana.token).v1.statuses.create({ status: 'hello' });
    const bens = t.client(ben.token);
    await bens.v1.statuses.$select(post.id).favourite();
    await bens.v1.statuses.$select(post.id).reblog();
    const reply = await bens.v1.statuses.create({ status: 'nice', inReplyToId: post.id });
    await bens.v1.accounts.$select(ana.user._id).follow();
    return { post, reply };
  }

  it('tells of a favourite, a reblog, a reply and a follow with who and which status', async () => {
    const [ana, ben] = await createMembers(t.app, 2);
    const { post, reply } = await actOn(ana, ben);
    const list = await notificationsOf(ana);
    expect(list.map((n) => n.type)).toEqual(['follow', 'mention', 'reblog', 'favourite']);
    for (const notification of list) {
      expect(notification.account.id).toBe(ben.user._id);
      expect(notification.groupKey).not.toBe('');
    }
    const [follow, mention, reblog, favourite] = list;
    expect(follow?.status).toBeUndefined();
    expect(mention?.status).toMatchObject({ id: reply.id, inReplyToId: post.id });
    expect(reblog?.status?.id).toBe(post.id);
    expect(favourite?.status?.id).toBe(post.id);

    const one = await t
      .client(ana.token)
      .v1.notifications.$select(favourite?.id ?? '')
      .fetch();
    expect(one).toMatchObject({ id: favourite?.id, type: 'favourite' });
    const others = await raw(`/api/v1/notifications/${favourite?.id ?? ''}`, ben.token);
    expect(others.status).toBe(404);
    expect(await others.json()).toEqual({ error: 'Record not found' });
    expect((await raw('/api/v1/notifications/nonsense', ana.token)).status).toBe(404);
  });

  it('filters by types[] and exclude_types[]', async () => {
    const [ana, ben] = await createMembers(t.app, 2);
    await actOn(ana, ben);
    const only = await notificationsOf(ana, { types: ['favourite', 'follow'] });
    expect(only.map((n) => n.type)).toEqual(['follow', 'favourite']);
    const without = await notificationsOf(ana, { excludeTypes: ['mention', 'follow'] });
    expect(without.map((n) => n.type)).toEqual(['reblog', 'favourite']);
  });

  it('pages with max_id and the Link header, and answers newer ones for since_id and min_id', async () => {
    const [ana, ben] = await createMembers(t.app, 2);
    await actOn(ana, ben);
    const all = await notificationsOf(ana);
    const ids = all.map((n) => n.id);
    expect(ids).toHaveLength(4);

    const first = await raw('/api/v1/notifications?limit=2', ana.token);
    const page = (await first.json()) as { id: string }[];
    expect(page.map((n) => n.id)).toEqual(ids.slice(0, 2));
    const link = first.headers.get('link') ?? '';
    const next = /<([^>]+)>; rel="next"/.exec(link)?.[1];
    expect(next).toContain(`max_id=${ids[1] ?? ''}`);
    const second = await fetch(next ?? '', { headers: { authorization: `Bearer ${ana.token}` } });
    expect(((await second.json()) as { id: string }[]).map((n) => n.id)).toEqual(ids.slice(2));

    const below = await notificationsOf(ana, { maxId: ids[0] });
    expect(below.map((n) => n.id)).toEqual(ids.slice(1));
    const since = await notificationsOf(ana, { sinceId: ids[2] });
    expect(since.map((n) => n.id)).toEqual(ids.slice(0, 2));
    const min = await notificationsOf(ana, { minId: ids[3], limit: 2 });
    expect(min.map((n) => n.id)).toEqual(ids.slice(1, 3));
  });

  it('counts the unread, dismisses one and clears them all', async () => {
    const [ana, ben] = await createMembers(t.app, 2);
    await actOn(ana, ben);
    const client = t.client(ana.token);
    const list = await notificationsOf(ana);
    expect(await client.v1.notifications.unreadCount.fetch()).toEqual({ count: 4 });

    const reblog = list.find((n) => n.type === 'reblog');
    await client.v1.notifications.$select(reblog?.id ?? '').dismiss();
    const left = await notificationsOf(ana);
    expect(left.map((n) => n.type)).toEqual(['follow', 'mention', 'favourite']);
    expect(await client.v1.notifications.unreadCount.fetch()).toEqual({ count: 3 });
    const again = await raw(`/api/v1/notifications/${reblog?.id ?? ''}/dismiss`, ana.token, {
      method: 'POST',
    });
    expect(again.status).toBe(404);

    await client.v1.notifications.clear();
    expect(await notificationsOf(ana)).toEqual([]);
    expect(await client.v1.notifications.unreadCount.fetch()).toEqual({ count: 0 });
  });

  it("leaves out a blocked or muted member's notifications", async () => {
    const [ana, ben, cy, dee] = await createMembers(t.app, 4);
    const post = await t.client(ana.token).v1.statuses.create({ status: 'mine' });
    for (const member of [ben, cy, dee]) {
      await t.client(member.token).v1.statuses.$select(post.id).favourite();
      await t.client(member.token).v1.accounts.$select(ana.user._id).follow();
    }
    await drain(t.app);
    await block(t.app, ana, ben);
    await mute(t.app, ana, cy);
    const list = await notificationsOf(ana);
    expect(list.map((n) => [n.type, n.account.id])).toEqual([
      ['follow', dee.user._id],
      ['favourite', dee.user._id],
    ]);
  });

  it('answers v2 grouped notifications with each account and status once', async () => {
    const [ana, ben, cy] = await createMembers(t.app, 3);
    const { post } = await actOn(ana, ben);
    await t.client(cy.token).v1.statuses.$select(post.id).favourite();
    await drain(t.app);
    const grouped = await t.client(ana.token).v2.notifications.list();
    expect(grouped.notificationGroups.map((group) => group.type)).toEqual([
      'favourite',
      'follow',
      'mention',
      'reblog',
    ]);
    expect(grouped.notificationGroups[0]).toMatchObject({
      notificationsCount: 2,
      sampleAccountIds: [cy.user._id, ben.user._id],
      statusId: post.id,
    });
    expect(grouped.accounts.map((account) => account.id).sort()).toEqual(
      [ben.user._id, cy.user._id].sort(),
    );
    expect(grouped.statuses.map((status) => status.id)).toContain(post.id);
    const v1 = await notificationsOf(ana);
    expect(grouped.notificationGroups.map((group) => group.mostRecentNotificationId)).toEqual(
      v1.map((n) => n.id),
    );
  });

  it('asks for the notification scopes', async () => {
    const [ana] = await createMembers(t.app, 1);
    const anonymous = await fetch(`${t.url}/api/v1/notifications`);
    expect(anonymous.status).toBe(401);
    expect((await raw('/api/v1/notifications/unread_count', ana.token)).status).toBe(200);
  });
});
