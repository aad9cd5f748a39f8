import { tagsOf, type Post, type UserStub } from '@perch/contract';
import type { FeedEntry, FeedPerson } from './feed-document';
import type { ImageDetails } from './enclosures';
import { contentHtml } from '../../read-model/post/content-html';
import { postTitle, quotingLine, warned, type FeedLinks } from './post-html';

/** The instance's public addresses, from where it is reached (see publicOrigin). */
export interface SiteLinks extends FeedLinks {
  post: (username: string, postId: string) => string;
  /** An address the API answers (an avatar's /media/…) made absolute. */
  absolute: (url: string) => string;
}

export function siteLinks(origin: string): SiteLinks {
  const member = (username: string) => `${origin}/@${encodeURIComponent(username)}`;
  return {
    member,
    tag: (tag) => `${origin}/tags/${encodeURIComponent(tag)}`,
    post: (username, postId) => `${member(username)}/${encodeURIComponent(postId)}`,
    absolute: (url) => (/^https?:\/\//i.test(url) ? url : `${origin}${url}`),
  };
}

/** How feeds name a member: their name, or their username when they gave none. */
export function displayName(member: Pick<UserStub, 'firstName' | 'lastName' | 'username'>) {
  const name = `${member.firstName} ${member.lastName}`.trim();
  return name === '' ? member.username : name;
}

export function personOf(member: UserStub, links: SiteLinks): FeedPerson {
  return { name: displayName(member), uri: links.member(member.username) };
}

/** Posts as feed entries, in the order given; an image that is not stored has no enclosure. */
export function entriesOf(
  posts: readonly Post[],
  images: ReadonlyMap<string, ImageDetails>,
  links: SiteLinks,
): FeedEntry[] {
  return posts.map((post) => {
    const image = post.mediaURL === null ? undefined : images.get(post.mediaURL);
    return {
      url: links.post(post.author.username, post._id),
      title: postTitle(post.contentWarning ?? post.content, displayName(post.author)),
      html: warned(
        post.contentWarning,
        contentHtml(post.content, post.entities, { tag: links.tag, member: links.member }) +
          quotingLine(post.quote, links.post),
      ),
      published: new Date(post.createdAt),
      updated: new Date(post.updatedAt),
      author: personOf(post.author, links),
      enclosure:
        post.mediaURL !== null && image
          ? { url: links.absolute(post.mediaURL), ...image, alt: post.mediaAlt }
          : null,
      tags: tagsOf(post.entities),
    };
  });
}

/** When the feed last changed: its newest entry's change, or `since` when that is later. */
export function lastChange(entries: readonly FeedEntry[], since: Date): Date {
  return new Date(Math.max(since.getTime(), ...entries.map((entry) => entry.updated.getTime())));
}
