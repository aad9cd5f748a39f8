/**
 * A feed as both formats need it, before it is written as RSS 2.0 or Atom (feed-xml.ts): every
 * link absolute, every date a Date, the text of each entry already HTML.
 */
export interface FeedPerson {
  name: string;
  /** The member's page. */
  uri: string;
}

/** An image attached to a post, as readers download it. */
export interface FeedEnclosure {
  url: string;
  /** MIME type, e.g. image/webp. */
  type: string;
  /** In bytes, the stored file's size. */
  length: number;
  /** The image's description, when it has one. */
  alt: string | null;
}

export interface FeedEntry {
  /** The post's page, also its permanent id. */
  url: string;
  /** Plain text: the post's opening words. */
  title: string;
  /** The post's text as HTML: escaped, tags and mentions as links, line breaks kept. */
  html: string;
  published: Date;
  updated: Date;
  author: FeedPerson;
  enclosure: FeedEnclosure | null;
  /** The post's tags, as categories. */
  tags: string[];
}

export interface FeedDocument {
  title: string;
  /** The page the feed follows (a member's profile, a tag's page). */
  pageUrl: string;
  /** Where the feed itself is read, per format it is offered in. */
  feedUrls: { rss: string; atom?: string };
  description: string;
  language: string;
  /** When the newest entry last changed. */
  updated: Date;
  /** The member's avatar, absolute; null when there is none. */
  image: string | null;
  /** Whose feed this is, when it is one member's. */
  author: FeedPerson | null;
  /** Newest first. */
  entries: FeedEntry[];
}
