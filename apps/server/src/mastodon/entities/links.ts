/** Absolute addresses of Perch's pages and files, as Mastodon's entities carry them. */
export interface Links {
  origin: string;
}

export const absolute = (links: Links, pathOrUrl: string): string =>
  /^https?:\/\//i.test(pathOrUrl) ? pathOrUrl : `${links.origin}${pathOrUrl}`;

export const profileUrl = (links: Links, username: string): string =>
  `${links.origin}/@${encodeURIComponent(username)}`;

export const postUrl = (links: Links, postId: string): string =>
  `${links.origin}/posts/${encodeURIComponent(postId)}`;

export const tagUrl = (links: Links, tag: string): string =>
  `${links.origin}/tags/${encodeURIComponent(tag.toLowerCase())}`;
