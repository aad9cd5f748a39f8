import { XMLParser } from 'fast-xml-parser';
import { SyntaxValidator } from 'fast-xml-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sitemap, SITEMAP_URLS_MAX } from '../../src/modules/feeds/sitemap';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import { expectPlainNotFound } from './feed-helpers';

const ORIGIN = 'https://perch.example';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => name === 'url' || name === 'sitemap',
});

interface Parsed {
  urlset?: { '@xmlns': string; url?: { loc: string; lastmod: string }[] };
  sitemapindex?: { '@xmlns': string; sitemap: { loc: string }[] };
}

function parsed(xml: string): Parsed {
  expect(new SyntaxValidator().validate(xml)).toBe(true);
  return parser.parse(xml) as Parsed;
}

let t: TestApp;
let shown: Member;
let noindex: Member;
let hidden: Member;
const get = (url: string) => call(t.app, { method: 'GET', url });

beforeAll(async () => {
  t = await createTestApp({ publicUrl: ORIGIN });
  shown = await createMember(t.app, { username: 'shown_sitemap' });
  noindex = await createMember(t.app, { username: 'noindex_sitemap' });
  hidden = await createMember(t.app, { username: 'hidden_sitemap' });
  for (const [member, body] of [
    [noindex, { noindex: true }],
    [hidden, { publicProfile: false }],
  ] as const) {
    const response = await call(t.app, {
      method: 'PATCH',
      url: '/api/account/privacy',
      token: member.token,
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(200);
  }
});
afterAll(async () => {
  await t.close();
});

describe('GET /sitemap.xml', () => {
  it('lists the profiles search engines may index, with when each last changed', async () => {
    const response = await get('/sitemap.xml');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    const { urlset } = parsed(response.body);
    expect(urlset?.['@xmlns']).toBe(NS);
    const locs = (urlset?.url ?? []).map((url) => url.loc);
    expect(locs).toContain(`${ORIGIN}/@shown_sitemap`);
    expect(locs).not.toContain(`${ORIGIN}/@noindex_sitemap`);
    expect(locs).not.toContain(`${ORIGIN}/@hidden_sitemap`);
    const entry = urlset?.url?.find((url) => url.loc === `${ORIGIN}/@shown_sitemap`);
    expect(new Date(entry?.lastmod ?? '').getTime()).toBe(new Date(shown.user.updatedAt).getTime());
  });

  it('serves its one page at /sitemaps/1.xml and no other', async () => {
    const first = await get('/sitemaps/1.xml');
    expect(first.statusCode).toBe(200);
    expect(parsed(first.body).urlset?.url?.map((url) => url.loc)).toEqual(
      parsed((await get('/sitemap.xml')).body).urlset?.url?.map((url) => url.loc),
    );
    for (const page of ['2', '0', 'x', '01', '99999999']) {
      expectPlainNotFound(await get(`/sitemaps/${page}.xml`));
    }
  });

  it('becomes an index of pages past 50,000 members', async () => {
    const asked: { offset: number; limit: number }[] = [];
    const users = {
      indexableMembers: (page: { offset: number; limit: number }) => {
        asked.push(page);
        return Promise.resolve({ members: [], total: 2 * SITEMAP_URLS_MAX + 1 });
      },
    };
    const index = parsed((await sitemap({ users }, ORIGIN, null)) ?? '');
    expect(index.sitemapindex?.sitemap.map((entry) => entry.loc)).toEqual([
      `${ORIGIN}/sitemaps/1.xml`,
      `${ORIGIN}/sitemaps/2.xml`,
      `${ORIGIN}/sitemaps/3.xml`,
    ]);
    expect(await sitemap({ users }, ORIGIN, 3)).not.toBeNull();
    expect(asked.at(-1)).toEqual({ offset: 2 * SITEMAP_URLS_MAX, limit: SITEMAP_URLS_MAX });
    expect(await sitemap({ users }, ORIGIN, 4)).toBeNull();
  });
});

describe('GET /robots.txt', () => {
  it('keeps crawlers out of the API and names the sitemap', async () => {
    const response = await get('/robots.txt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toMatch(/^User-agent: \*$/m);
    expect(response.body).toMatch(/^Disallow: \/api\/$/m);
    expect(response.body).toMatch(new RegExp(`^Sitemap: ${ORIGIN}/sitemap.xml$`, 'm'));
  });
});
