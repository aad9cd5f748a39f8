import { create } from 'xmlbuilder2';
import type { FeedDocument, FeedEntry, FeedPerson } from './feed-document';

type XMLBuilder = ReturnType<typeof create>;

const ATOM_NS = 'http://www.w3.org/2005/Atom';
const CONTENT_NS = 'http://purl.org/rss/1.0/modules/content/';
const DC_NS = 'http://purl.org/dc/elements/1.1/';
const RSS_TYPE = 'application/rss+xml';
const ATOM_TYPE = 'application/atom+xml';

// XML 1.0 allows no control characters but tab and line breaks, nor lone surrogates, even
// escaped; a post may hold them, and the builder writes them as they are.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * A value as the builder must be given it. xmlbuilder2 escapes <, > and quotes, but leaves an &
 * that starts something like an entity (`&lt;`, `&T;`, `&#38;`) as it is, which would turn a
 * post's escaped HTML back into markup or leave an undefined entity; so every & is written as
 * &amp; here, and the builder leaves those alone.
 */
export const xmlValue = (value: string): string =>
  value.replace(NOT_XML, '').replace(/&/g, '&amp;');

/** RFC 822 (as RFC 1123 writes it), which RSS 2.0 asks for: "Wed, 02 Dec 2026 17:15:01 GMT". */
const rfc822 = (date: Date): string => date.toUTCString();
/** RFC 3339, which Atom asks for. */
const rfc3339 = (date: Date): string => date.toISOString();

type Attributes = Record<string, string>;

/** A child element, its attributes given as they are (see xmlValue). */
function element(parent: XMLBuilder, name: string, attributes: Attributes = {}): XMLBuilder {
  const values = Object.entries(attributes).map(([key, value]) => [key, xmlValue(value)]);
  return parent.ele(name, Object.fromEntries(values) as Attributes);
}

/** A child element with text (and attributes), given as they are. */
function text(parent: XMLBuilder, name: string, value: string, attributes?: Attributes): void {
  element(parent, name, attributes).txt(xmlValue(value));
}

function rssItem(channel: XMLBuilder, entry: FeedEntry): void {
  const item = element(channel, 'item');
  text(item, 'title', entry.title);
  text(item, 'link', entry.url);
  text(item, 'guid', entry.url, { isPermaLink: 'true' });
  text(item, 'pubDate', rfc822(entry.published));
  text(item, 'atom:updated', rfc3339(entry.updated));
  text(item, 'dc:creator', entry.author.name);
  for (const tag of entry.tags) text(item, 'category', tag);
  text(item, 'description', entry.html);
  text(item, 'content:encoded', entry.html);
  if (entry.enclosure) {
    const { url, type, length } = entry.enclosure;
    element(item, 'enclosure', { url, length: String(length), type });
  }
}

/** The feed as RSS 2.0, with Atom's self link and each item's update time. */
export function rss2(feed: FeedDocument): string {
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('rss', {
    version: '2.0',
    'xmlns:atom': ATOM_NS,
    'xmlns:content': CONTENT_NS,
    'xmlns:dc': DC_NS,
  });
  const channel = element(root, 'channel');
  text(channel, 'title', feed.title);
  text(channel, 'link', feed.pageUrl);
  text(channel, 'description', feed.description);
  element(channel, 'atom:link', { href: feed.feedUrls.rss, rel: 'self', type: RSS_TYPE });
  text(channel, 'language', feed.language);
  text(channel, 'lastBuildDate', rfc822(feed.updated));
  if (feed.image) {
    const image = element(channel, 'image');
    text(image, 'url', feed.image);
    text(image, 'title', feed.title);
    text(image, 'link', feed.pageUrl);
  }
  for (const entry of feed.entries) rssItem(channel, entry);
  return root.end({ prettyPrint: true });
}

function atomPerson(parent: XMLBuilder, person: FeedPerson): void {
  const author = element(parent, 'author');
  text(author, 'name', person.name);
  text(author, 'uri', person.uri);
}

function atomEntry(root: XMLBuilder, entry: FeedEntry): void {
  const item = element(root, 'entry');
  text(item, 'id', entry.url);
  text(item, 'title', entry.title, { type: 'text' });
  text(item, 'published', rfc3339(entry.published));
  text(item, 'updated', rfc3339(entry.updated));
  atomPerson(item, entry.author);
  element(item, 'link', { rel: 'alternate', type: 'text/html', href: entry.url });
  if (entry.enclosure) {
    const { url, type, length, alt } = entry.enclosure;
    const attributes = { rel: 'enclosure', type, length: String(length), href: url };
    element(item, 'link', alt ? { ...attributes, title: alt } : attributes);
  }
  for (const tag of entry.tags) element(item, 'category', { term: tag });
  text(item, 'content', entry.html, { type: 'html' });
}

/** The feed as Atom 1.0 (RFC 4287); its id is the feed's own address. */
export function atom1(feed: FeedDocument): string {
  const self = feed.feedUrls.atom ?? feed.feedUrls.rss;
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(ATOM_NS, 'feed', {
    'xml:lang': xmlValue(feed.language),
  });
  text(root, 'id', self);
  text(root, 'title', feed.title, { type: 'text' });
  if (feed.description) text(root, 'subtitle', feed.description, { type: 'text' });
  text(root, 'updated', rfc3339(feed.updated));
  element(root, 'link', { rel: 'alternate', type: 'text/html', href: feed.pageUrl });
  element(root, 'link', { rel: 'self', type: ATOM_TYPE, href: self });
  if (feed.author) atomPerson(root, feed.author);
  if (feed.image) {
    text(root, 'icon', feed.image);
    text(root, 'logo', feed.image);
  }
  for (const entry of feed.entries) atomEntry(root, entry);
  return root.end({ prettyPrint: true });
}
