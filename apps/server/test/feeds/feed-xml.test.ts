import { findEntities, type Entity } from '@perch/contract';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { FeedDocument } from '../../src/modules/feeds/feed-document';
import { atom1, rss2 } from '../../src/modules/feeds/feed-xml';
import { postTitle, type FeedLinks } from '../../src/modules/feeds/post-html';
import { contentHtml } from '../../src/read-model/post/content-html';
import { wellFormed } from './feed-helpers';

const links: FeedLinks = {
  member: (username) => `https://perch.example/@${username}`,
  tag: (tag) => `https://perch.example/tags/${encodeURIComponent(tag)}`,
};

const postHtml = (text: string, entities: readonly Entity[], feedLinks: FeedLinks) =>
  contentHtml(text, entities, { tag: feedLinks.tag, member: feedLinks.member });

/** Mentions as the server stores them: only of members that exist, here every one. */
function entitiesOf(text: string): Entity[] {
  return findEntities(text).map((found) =>
    found.type === 'tag' ? found : { ...found, userId: `id-${found.username}` },
  );
}

const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false });

function feedWith(text: string): FeedDocument {
  const when = new Date('2026-03-04T05:06:07.089Z');
  const person = { name: text, uri: 'https://perch.example/@someone' };
  return {
    title: text,
    pageUrl: 'https://perch.example/@someone',
    feedUrls: { rss: 'https://perch.example/@someone.rss' },
    description: text,
    language: 'en',
    updated: when,
    image: null,
    author: person,
    entries: [
      {
        url: 'https://perch.example/@someone/1',
        title: text,
        html: postHtml(text, entitiesOf(text), links),
        published: when,
        updated: when,
        author: person,
        enclosure: {
          url: 'https://perch.example/media/a.webp',
          type: 'image/webp',
          length: 1,
          alt: text,
        },
        tags: [],
      },
    ],
  };
}

describe('feed XML', () => {
  // What a member may type: entity-like text, markup, CDATA's end, control characters, a lone
  // surrogate, an emoji.
  const tricky = 'AT&T; &amp; &lt;b&gt; &#38; <i>x</i> ]]> "q" \u0001\u0007 \uD800 end 🐦';
  const kept = 'AT&T; &amp; &lt;b&gt; &#38; <i>x</i> ]]> "q"   end 🐦';

  it('keeps any text as it was, in RSS, and stays well-formed', () => {
    const xml = rss2(feedWith(tricky));
    wellFormed(xml);
    const channel = (parser.parse(xml) as { rss: { channel: Record<string, unknown> } }).rss
      .channel;
    expect(channel.title).toBe(kept);
    expect(channel.description).toBe(kept);
    const item = channel.item as Record<string, unknown>;
    expect(item.title).toBe(kept);
    expect(item['dc:creator']).toBe(kept);
    expect(item.pubDate).toBe('Wed, 04 Mar 2026 05:06:07 GMT');
    expect(item['atom:updated']).toBe('2026-03-04T05:06:07.089Z');
  });

  it('keeps any text as it was, in Atom, attributes too', () => {
    const xml = atom1(feedWith(tricky));
    wellFormed(xml);
    const feed = (parser.parse(xml) as { feed: Record<string, unknown> }).feed;
    expect((feed.title as Record<string, unknown>)['#text']).toBe(kept);
    const entry = feed.entry as Record<string, unknown>;
    const enclosure = (entry.link as Record<string, unknown>[]).find(
      (link) => link['@_rel'] === 'enclosure',
    );
    expect(enclosure?.['@_title']).toBe(kept);
    expect(enclosure?.['@_length']).toBe('1');
  });

  it('carries the HTML escaped once: markup a member typed stays text', () => {
    const xml = atom1(feedWith('<script>alert("x")</script> &lt;b&gt;'));
    const feed = (parser.parse(xml) as { feed: { entry: { content: { '#text': string } } } }).feed;
    expect(feed.entry.content['#text']).toBe(
      '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp;lt;b&amp;gt;</p>',
    );
  });
});

describe('post HTML', () => {
  it('links tags and mentions where the entities say, even after Windows line breaks', () => {
    const text = 'one\r\ntwo #Birds\r\n\r\n@ann_b & <b>';
    expect(postHtml(text, entitiesOf(text), links)).toBe(
      '<p>one<br>two <a href="https://perch.example/tags/birds" class="hashtag" rel="tag">#Birds</a></p>' +
        '<p><a href="https://perch.example/@ann_b" class="mention">@ann_b</a> &amp; &lt;b&gt;</p>',
    );
  });

  it('makes paragraphs of blank lines and nothing of surrounding space', () => {
    expect(postHtml('  \n\na\n\n\n\nb\n  ', [], links)).toBe('<p>a</p><p>b</p>');
    expect(postHtml('', [], links)).toBe('');
  });

  it('leaves a mention as text where the member has no page to link', () => {
    const text = 'hi @ann_b & @cy_d';
    const html = contentHtml(text, entitiesOf(text), {
      tag: links.tag,
      member: (username, userId) => (userId === 'id-ann_b' ? null : `/@${username}`),
    });
    expect(html).toBe('<p>hi @ann_b &amp; <a href="/@cy_d" class="mention">@cy_d</a></p>');
  });
});

describe('post titles', () => {
  it('is the first line, whole when short', () => {
    expect(postTitle('Hello there\nmore', 'Ann')).toBe('Hello there');
  });

  it('is cut at a word, never inside an emoji, when long', () => {
    const long = `${'word '.repeat(30)}end`;
    const title = postTitle(long, 'Ann');
    expect(title.endsWith('word…')).toBe(true);
    expect(title.length).toBeLessThanOrEqual(80);
    const family = '👩‍👩‍👧'.repeat(100);
    const cut = postTitle(family, 'Ann');
    expect(cut.endsWith('👩‍👩‍👧…')).toBe(true);
  });

  it('names the author of a post that is an image alone', () => {
    expect(postTitle('   ', 'Ann Lee')).toBe('Image by Ann Lee');
  });
});
