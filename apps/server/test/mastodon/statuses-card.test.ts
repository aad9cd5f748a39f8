import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drain } from '../events/event-helpers';
import type { Member } from '../factories';
import { html, ogPage, startLinkServer, type LinkServer } from '../preview-cards/link-server';
import { createMembers } from '../social/social-helpers';
import { createListeningApp, type ListeningApp } from './mastodon-helpers';

describe("Mastodon statuses' preview cards", () => {
  let site: LinkServer;
  let t: ListeningApp;
  let ana: Member;

  beforeAll(async () => {
    site = await startLinkServer({
      '/article': html(ogPage({ title: 'Perches of the north', description: 'Where they sit.' })),
    });
    t = await createListeningApp({ linkPreviews: true, linkPreviewAllowPrivate: true });
    [ana] = await createMembers(t.app, 1);
  });
  afterAll(async () => {
    await t.close();
    await site.close();
  });

  it('shows the card of the first link once it is fetched', async () => {
    const link = `${site.origin}/article`;
    const client = t.client(ana.token);
    const status = await client.v1.statuses.create({ status: `Read ${link}` });
    expect(status.card).toBeNull();
    await drain(t.app);
    await t.app.services.previewCards?.drain();
    const read = await client.v1.statuses.$select(status.id).fetch();
    expect(read.card).toMatchObject({
      url: link,
      title: 'Perches of the north',
      description: 'Where they sit.',
      type: 'link',
      image: null,
    });
  });
});
