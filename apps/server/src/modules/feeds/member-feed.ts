import type { FeedDocument } from './feed-document';
import { displayName, entriesOf, lastChange, personOf, siteLinks } from './feed-entries';
import { FEED_LANGUAGE, FEED_LENGTH, type FeedsDeps } from './feeds.deps';

export interface MemberFeed {
  feed: FeedDocument;
  /** The member asked search engines not to index their public pages. */
  noindex: boolean;
}

/**
 * A member's newest posts as people who are not signed in see them; null when there is no such
 * member or they keep their profile from such readers.
 */
export async function memberFeed(
  { users, posts, images }: FeedsDeps,
  username: string,
  origin: string,
): Promise<MemberFeed | null> {
  const member = await users.publicMember(username);
  if (!member) return null;
  const { user } = member;
  const page = await posts.byAuthor(user.username, null, { sort: 'latest', limit: FEED_LENGTH });
  const links = siteLinks(origin);
  const details = await images(page.posts.flatMap((post) => post.mediaURL ?? []));
  const entries = entriesOf(page.posts, details, links);
  const name = displayName(user);
  const pageUrl = links.member(user.username);
  return {
    noindex: member.noindex,
    feed: {
      title: `${name} (@${user.username})`,
      pageUrl,
      feedUrls: { rss: `${pageUrl}.rss`, atom: `${pageUrl}.atom` },
      description: user.bio.trim() === '' ? `Posts by ${name} (@${user.username})` : user.bio,
      language: FEED_LANGUAGE,
      updated: lastChange(entries, new Date(user.updatedAt)),
      image: user.avatarURL === null ? null : links.absolute(user.avatarURL),
      author: personOf(user, links),
      entries,
    },
  };
}
