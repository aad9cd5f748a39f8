import { normalizeTag, type Post } from '@perch/contract';
import type { FeedDocument } from './feed-document';
import { entriesOf, lastChange, siteLinks } from './feed-entries';
import { FEED_LANGUAGE, FEED_LENGTH, type FeedsDeps } from './feeds.deps';

/** Pages of the tag read at most to fill a feed when hidden members' posts are left out. */
const PAGES_MAX = 5;

/**
 * The tag's newest posts by members who let people who are not signed in see them: pages of the
 * tag are read until the feed is full, the tag has no more, or PAGES_MAX were read.
 */
async function publicTagPosts({ users, discovery }: FeedsDeps, tag: string): Promise<Post[]> {
  const posts: Post[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < PAGES_MAX && posts.length < FEED_LENGTH; page += 1) {
    const found = await discovery.tagPage(null, tag, { limit: FEED_LENGTH, cursor });
    const shown = await users.publicAmong(found.posts.map((post) => post.author._id));
    posts.push(...found.posts.filter((post) => shown.has(post.author._id)));
    if (found.nextCursor === null) break;
    cursor = found.nextCursor;
  }
  return posts.slice(0, FEED_LENGTH);
}

/**
 * A tag's newest posts as people who are not signed in see them; null when `raw` is no tag (the
 * contract's rule: letters, digits, marks, underscores, compared without case). A tag nobody used
 * has an empty feed.
 */
export async function tagFeed(
  deps: FeedsDeps,
  raw: string,
  origin: string,
): Promise<FeedDocument | null> {
  const tag = normalizeTag(raw.replace(/^#/, ''));
  if (tag === null) return null;
  const posts = await publicTagPosts(deps, tag);
  const links = siteLinks(origin);
  const entries = entriesOf(
    posts,
    await deps.images(posts.flatMap((post) => post.mediaURL ?? [])),
    links,
  );
  const pageUrl = links.tag(tag);
  return {
    title: `#${tag}`,
    pageUrl,
    feedUrls: { rss: `${pageUrl}.rss` },
    description: `Posts tagged #${tag}`,
    language: FEED_LANGUAGE,
    updated: lastChange(entries, new Date(0)),
    image: null,
    author: null,
    entries,
  };
}
