import { statSync } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { SyntaxValidator } from 'fast-xml-validator';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { z } from 'zod';

/** Elements a feed may repeat: read as lists even when there is one. */
const REPEATED = new Set(['rss.channel.item', 'rss.channel.item.category', 'feed.entry']);
const REPEATED_IN_ATOM = new Set(['feed.link', 'feed.entry.link', 'feed.entry.category']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  jPath: true,
  isArray: (_name, jPath) =>
    typeof jPath === 'string' && (REPEATED.has(jPath) || REPEATED_IN_ATOM.has(jPath)),
});

// RSS 2.0's required channel elements (title, link, description), each item with a title or a
// description; an enclosure has all three attributes.
const rssItemSchema = z.object({
  title: z.string(),
  link: z.string(),
  guid: z.object({ '#text': z.string(), '@isPermaLink': z.literal('true') }),
  pubDate: z.string(),
  'atom:updated': z.string(),
  'dc:creator': z.string(),
  category: z.array(z.string()).optional(),
  description: z.string(),
  'content:encoded': z.string(),
  enclosure: z
    .object({ '@url': z.string(), '@length': z.string(), '@type': z.string() })
    .strict()
    .optional(),
});

const rssSchema = z.object({
  rss: z.object({
    '@version': z.literal('2.0'),
    channel: z.object({
      title: z.string(),
      link: z.string(),
      description: z.string().min(1),
      'atom:link': z.object({
        '@href': z.string(),
        '@rel': z.literal('self'),
        '@type': z.literal('application/rss+xml'),
      }),
      language: z.string(),
      lastBuildDate: z.string(),
      image: z.object({ url: z.string(), title: z.string(), link: z.string() }).optional(),
      item: z.array(rssItemSchema).default([]),
    }),
  }),
});
export type RssFeed = z.infer<typeof rssSchema>['rss']['channel'];
export type RssItem = z.infer<typeof rssItemSchema>;

const atomLinkSchema = z.object({
  '@rel': z.string(),
  '@href': z.string(),
  '@type': z.string().optional(),
  '@length': z.string().optional(),
  '@title': z.string().optional(),
});
const atomTextSchema = z.object({ '#text': z.string(), '@type': z.string() });
const personSchema = z.object({ name: z.string().min(1), uri: z.string() });

// RFC 4287: a feed has id, title and updated, and an author unless every entry has one; an entry
// has id, title and updated.
const atomEntrySchema = z.object({
  id: z.string(),
  title: atomTextSchema,
  published: z.string(),
  updated: z.string(),
  author: personSchema,
  link: z.array(atomLinkSchema),
  category: z.array(z.object({ '@term': z.string() })).optional(),
  content: z.object({ '#text': z.string(), '@type': z.literal('html') }),
});

const atomSchema = z.object({
  feed: z.object({
    '@xmlns': z.literal('http://www.w3.org/2005/Atom'),
    id: z.string(),
    title: atomTextSchema,
    subtitle: atomTextSchema.optional(),
    updated: z.string(),
    link: z.array(atomLinkSchema),
    author: personSchema.optional(),
    icon: z.string().optional(),
    logo: z.string().optional(),
    entry: z.array(atomEntrySchema).default([]),
  }),
});
export type AtomFeed = z.infer<typeof atomSchema>['feed'];
export type AtomEntry = z.infer<typeof atomEntrySchema>;

/**
 * Throws unless the XML is well-formed. With no DTD only XML's five entities are defined, which
 * the validator does not check: any other reference (`&T;`) would make the document unreadable.
 */
export function wellFormed(xml: string): void {
  expect(SyntaxValidator.validate(xml)).toBe(true);
  const references = xml.match(/&[^;\s]*;?/g) ?? [];
  for (const reference of references) {
    expect(reference).toMatch(/^&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);$/);
  }
}

/** The answer as an RSS 2.0 channel: well-formed, its required elements present. */
export function rssOf(response: LightMyRequestResponse): RssFeed {
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
  wellFormed(response.body);
  return rssSchema.parse(parser.parse(response.body)).rss.channel;
}

/** The answer as an Atom feed: well-formed, its required elements present. */
export function atomOf(response: LightMyRequestResponse): AtomFeed {
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
  wellFormed(response.body);
  return atomSchema.parse(parser.parse(response.body)).feed;
}

/** The link of `rel` among an Atom element's links. */
export function linkOf(links: readonly z.infer<typeof atomLinkSchema>[], rel: string) {
  return links.find((link) => link['@rel'] === rel);
}

/** A 404 that is not the API's JSON: plain text. */
export function expectPlainNotFound(response: LightMyRequestResponse): void {
  expect(response.statusCode).toBe(404);
  expect(response.headers['content-type']).toMatch(/^text\/plain/);
  expect(() => JSON.parse(response.body) as unknown).toThrow();
}

/** The size in bytes of an image the server stored, by its URL (absolute or not). */
export function storedSize(dataDir: string, url: string): number {
  const key = new URL(url, 'http://x').pathname.replace(/^\/media\//, '');
  return statSync(path.join(dataDir, 'media', ...key.split('/'))).size;
}

/** The post id at the end of a post's page address. */
export const postIdOf = (url: string): string => url.slice(url.lastIndexOf('/') + 1);
