/** Absolute addresses of Perch's pages and files, as Mastodon's entities carry them. */
export interface Links {
  origin: string;
}

export const absolute = (links: Links, pathOrUrl: string): string =>
  /^https?:\/\//i.test(pathOrUrl) ? pathOrUrl : `${links.origin}${pathOrUrl}`;

export const profileUrl = (links: Links, username: string): string =>
  `${links.origin}/@${encodeURIComponent(username)}`;

/** A post's public page, `/@username/<id>`. */
export const postUrl = (links: Links, username: string, postId: string): string =>
  `${profileUrl(links, username)}/${encodeURIComponent(postId)}`;

export const tagUrl = (links: Links, tag: string): string =>
  `${links.origin}/tags/${encodeURIComponent(tag.toLowerCase())}`;
