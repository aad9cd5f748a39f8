import {
  MEDIA_ACCEPTED_TYPES,
  MEDIA_ALT_MAX,
  MEDIA_MAX_BYTES,
  MEDIA_MAX_PIXELS,
  POLL_EXPIRES_MAX,
  POLL_EXPIRES_MIN,
  POLL_OPTION_MAX,
  POLL_OPTIONS_MAX,
  POST_CONTENT_MAX,
  POST_MEDIA_MAX,
} from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import serverPackage from '../../package.json';
import { createMembers, createPost } from '../social/social-helpers';
import type { Member } from '../factories';
import { createListeningApp, type ListeningApp } from './mastodon-helpers';

describe('Mastodon instance', () => {
  let t: ListeningApp;
  let ana: Member;

  beforeAll(async () => {
    t = await createListeningApp();
    [ana] = await createMembers(t.app, 2);
    await createPost(t.app, ana.token, 'one');
    await createPost(t.app, ana.token, 'two');
  });
  afterAll(() => t.close());

  it("publishes Perch's own limits in the v2 instance", async () => {
    const instance = await t.client().v2.instance.fetch();
    const host = new URL(t.url).host;
    expect(instance.domain).toBe(host);
    expect(instance.version).toContain(`Perch ${serverPackage.version}`);
    expect(instance.configuration.statuses).toMatchObject({
      maxCharacters: POST_CONTENT_MAX,
      maxMediaAttachments: POST_MEDIA_MAX,
    });
    expect(instance.configuration.mediaAttachments).toMatchObject({
      supportedMimeTypes: [...MEDIA_ACCEPTED_TYPES],
      imageSizeLimit: MEDIA_MAX_BYTES,
      imageMatrixLimit: MEDIA_MAX_PIXELS,
      descriptionLimit: MEDIA_ALT_MAX,
    });
    expect(instance.configuration.polls).toEqual({
      maxOptions: POLL_OPTIONS_MAX,
      maxCharactersPerOption: POLL_OPTION_MAX,
      minExpiration: POLL_EXPIRES_MIN,
      maxExpiration: POLL_EXPIRES_MAX,
    });
    expect(instance.registrations).toMatchObject({ enabled: true, approvalRequired: false });
    expect(instance.configuration.urls.streaming).toBe(t.url.replace(/^http/, 'ws'));
    expect(instance.rules).toEqual([]);
  });

  it('counts members and posts in the v1 instance', async () => {
    const raw = await fetch(`${t.url}/api/v1/instance`);
    expect(raw.status).toBe(200);
    const instance = (await raw.json()) as {
      uri: string;
      stats: { user_count: number; status_count: number; domain_count: number };
      configuration: { statuses: { max_characters: number } };
      registrations: boolean;
    };
    expect(instance.uri).toBe(new URL(t.url).host);
    expect(instance.stats).toEqual({ user_count: 2, status_count: 2, domain_count: 0 });
    expect(instance.configuration.statuses.max_characters).toBe(POST_CONTENT_MAX);
    expect(instance.registrations).toBe(true);
    const viaMasto = await t.client(ana.token).v1.instance.fetch();
    expect(viaMasto.stats.userCount).toBe(2);
  });

  it('answers rules and custom emoji as empty lists, with or without a token', async () => {
    for (const path of ['/api/v1/instance/rules', '/api/v1/custom_emojis']) {
      const anonymous = await fetch(`${t.url}${path}`);
      expect(anonymous.status).toBe(200);
      expect(await anonymous.json()).toEqual([]);
    }
    expect(await t.client(ana.token).v1.customEmojis.list()).toEqual([]);
  });

  it("answers preferences from Perch's reading preferences", async () => {
    const read = async () => {
      const raw = await fetch(`${t.url}/api/v1/preferences`, {
        headers: { authorization: `Bearer ${ana.token}` },
      });
      expect(raw.status).toBe(200);
      return (await raw.json()) as Record<string, unknown>;
    };
    expect(await read()).toEqual({
      'posting:default:visibility': 'public',
      'posting:default:sensitive': false,
      'posting:default:language': null,
      'reading:expand:media': 'default',
      'reading:expand:spoilers': false,
    });
    const changed = await t.app.inject({
      method: 'PATCH',
      url: '/api/account/preferences',
      headers: { authorization: `Bearer ${ana.token}` },
      payload: { alwaysShowSensitiveMedia: true },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await read())['reading:expand:media']).toBe('show_all');
    const anonymous = await fetch(`${t.url}/api/v1/preferences`);
    expect(anonymous.status).toBe(401);
  });
});
