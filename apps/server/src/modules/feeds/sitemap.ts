import { create } from 'xmlbuilder2';
import type { UsersService } from '../users/users.service';
import { xmlValue } from './feed-xml';

const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** The most addresses one sitemap may hold (sitemaps.org). */
export const SITEMAP_URLS_MAX = 50_000;

export interface SitemapDeps {
  users: Pick<UsersService, 'indexableMembers'>;
}

const profileUrl = (origin: string, username: string) =>
  `${origin}/@${encodeURIComponent(username)}`;

/**
 * The sitemap of members' public profiles that search engines may index. Up to 50,000 members it
 * is one list; past that, /sitemap.xml is an index of pages (/sitemaps/1.xml, …), each a list.
 * `page` null asks for /sitemap.xml; a page past the last is null (404).
 */
export async function sitemap(
  { users }: SitemapDeps,
  origin: string,
  page: number | null,
): Promise<string | null> {
  const offset = page === null ? 0 : (page - 1) * SITEMAP_URLS_MAX;
  const { members, total } = await users.indexableMembers({ offset, limit: SITEMAP_URLS_MAX });
  const pages = Math.ceil(total / SITEMAP_URLS_MAX);
  if (page === null && pages > 1) {
    const index = create({ version: '1.0', encoding: 'UTF-8' }).ele(SITEMAP_NS, 'sitemapindex');
    for (let n = 1; n <= pages; n++) {
      index
        .ele('sitemap')
        .ele('loc')
        .txt(xmlValue(`${origin}/sitemaps/${n}.xml`));
    }
    return index.end({ prettyPrint: false });
  }
  if (page !== null && (page < 1 || page > Math.max(pages, 1))) return null;
  const list = create({ version: '1.0', encoding: 'UTF-8' }).ele(SITEMAP_NS, 'urlset');
  for (const member of members) {
    const url = list.ele('url');
    url.ele('loc').txt(xmlValue(profileUrl(origin, member.username)));
    url.ele('lastmod').txt(member.updatedAt.toISOString());
  }
  return list.end({ prettyPrint: false });
}
