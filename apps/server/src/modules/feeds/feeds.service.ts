import type { MediaService } from '../media/media.service';
import { createEnclosures } from './enclosures';
import { atom1, rss2 } from './feed-xml';
import type { FeedsDeps } from './feeds.deps';
import { memberFeed } from './member-feed';
import { sitemap, type SitemapDeps } from './sitemap';
import { tagFeed } from './tag-feed';

export interface FeedsServiceDeps extends Omit<FeedsDeps, 'images' | 'users'> {
  users: FeedsDeps['users'] & SitemapDeps['users'];
  media: Pick<MediaService, 'read' | 'sizesOf'>;
}

/** A feed written out: its XML, and whether robots are asked not to index it. */
export interface WrittenFeed {
  xml: string;
  noindex: boolean;
}

/** Images whose type and size are kept for enclosures (about 100 bytes each). */
const IMAGES_KEPT = 10_000;

/**
 * RSS 2.0 and Atom feeds of a member's posts and a tag's, as people who are not signed in see
 * them. Each feed is a use case of its own (member-feed.ts, tag-feed.ts), written by feed-xml.ts.
 */
export function createFeedsService({ media, ...rest }: FeedsServiceDeps) {
  const deps: FeedsDeps = { ...rest, images: createEnclosures({ media, max: IMAGES_KEPT }) };

  /** The member's feed in a format; null when they are unknown or hidden from such readers. */
  async function member(
    username: string,
    format: 'rss' | 'atom',
    origin: string,
  ): Promise<WrittenFeed | null> {
    const found = await memberFeed(deps, username, origin);
    if (!found) return null;
    return { xml: format === 'rss' ? rss2(found.feed) : atom1(found.feed), noindex: found.noindex };
  }

  return {
    member,
    /** The tag's feed as RSS; null when `tag` is no tag. */
    async tag(tag: string, origin: string): Promise<WrittenFeed | null> {
      const feed = await tagFeed(deps, tag, origin);
      return feed ? { xml: rss2(feed), noindex: false } : null;
    },
    /** The sitemap of indexable profiles (`page` null: /sitemap.xml); null past the last page. */
    sitemap: (origin: string, page: number | null) => sitemap({ users: rest.users }, origin, page),
  };
}

export type FeedsService = ReturnType<typeof createFeedsService>;
