import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import serverPackage from '../../package.json';
import { addComment, createMembers, createPost } from '../social/social-helpers';
import { createListeningApp, type ListeningApp } from './mastodon-helpers';

const SCHEMA = (version: string) => `http://nodeinfo.diaspora.software/ns/schema/${version}`;

/** NodeInfo 2.1's required shape (nodeinfo.diaspora.software/ns/schema/2.1), field by field. */
function expectNodeInfo(document: Record<string, unknown>, version: string): void {
  expect(Object.keys(document).sort()).toEqual(
    [
      'metadata',
      'openRegistrations',
      'protocols',
      'services',
      'software',
      'usage',
      'version',
    ].sort(),
  );
  expect(document.version).toBe(version);
  const software = document.software as Record<string, unknown>;
  expect(software.name).toMatch(/^[a-z0-9-]+$/);
  expect(typeof software.version).toBe('string');
  expect(Array.isArray(document.protocols)).toBe(true);
  expect(document.services).toEqual({ inbound: [], outbound: [] });
  expect(typeof document.openRegistrations).toBe('boolean');
  const usage = document.usage as { users: Record<string, number> } & Record<string, number>;
  for (const count of [...Object.values(usage.users), usage.localPosts, usage.localComments]) {
    expect(Number.isInteger(count) && (count ?? -1) >= 0).toBe(true);
  }
  expect(typeof document.metadata).toBe('object');
}

describe('NodeInfo', () => {
  let t: ListeningApp;

  beforeAll(async () => {
    t = await createListeningApp();
    const [ana, bea] = await createMembers(t.app, 3);
    const post = await createPost(t.app, ana.token, 'hello');
    await createPost(t.app, bea.token, 'hi');
    await addComment(t.app, bea.token, post._id, 'welcome');
  });
  afterAll(() => t.close());

  it('points to the 2.0 and 2.1 documents from /.well-known/nodeinfo', async () => {
    const raw = await fetch(`${t.url}/.well-known/nodeinfo`);
    expect(raw.status).toBe(200);
    expect(await raw.json()).toEqual({
      links: [
        { rel: SCHEMA('2.0'), href: `${t.url}/nodeinfo/2.0` },
        { rel: SCHEMA('2.1'), href: `${t.url}/nodeinfo/2.1` },
      ],
    });
  });

  it.each(['2.0', '2.1'])(
    'answers NodeInfo %s with the software and its usage',
    async (version) => {
      const raw = await fetch(`${t.url}/nodeinfo/${version}`);
      expect(raw.status).toBe(200);
      expect(raw.headers.get('content-type')).toContain(`profile="${SCHEMA(version)}#"`);
      const document = (await raw.json()) as Record<string, unknown>;
      expectNodeInfo(document, version);
      expect(document).toMatchObject({
        software: { name: 'perch', version: serverPackage.version },
        protocols: [],
        openRegistrations: true,
        usage: {
          users: { total: 3, activeMonth: 3, activeHalfyear: 3 },
          localPosts: 2,
          localComments: 1,
        },
      });
    },
  );

  it('answers no other version', async () => {
    const raw = await fetch(`${t.url}/nodeinfo/1.0`);
    expect(raw.status).toBeGreaterThanOrEqual(400);
    expect(raw.status).toBeLessThan(500);
  });
});
