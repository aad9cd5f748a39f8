import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cleanText,
  extractLinkMetadata,
  LINK_METADATA_LIMITS,
} from '../../src/platform/infra/link-metadata';

const PAGE = 'https://news.example/2024/story?id=7';
const graphemes = (text: string) => [...new Intl.Segmenter().segment(text)].length;

const page = (head: string, body = '<p>Body text</p>') =>
  `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;

describe('link metadata', () => {
  it('reads OpenGraph tags, preferring them to Twitter and plain tags', () => {
    const metadata = extractLinkMetadata(
      page(`
        <title>Plain title</title>
        <meta name="description" content="Plain description">
        <meta name="twitter:title" content="Twitter title">
        <meta name="twitter:image" content="https://cdn.example/twitter.png">
        <meta property="og:title" content="OpenGraph title">
        <meta property="og:description" content="OpenGraph description">
        <meta property="og:site_name" content="News Example">
        <meta property="og:image" content="https://cdn.example/og.png">
        <meta property="og:image:width" content="1200">
        <meta property="og:image:height" content="630">
        <meta property="og:image:alt" content="A harbour at dawn">
      `),
      PAGE,
    );
    expect(metadata).toEqual({
      title: 'OpenGraph title',
      description: 'OpenGraph description',
      siteName: 'News Example',
      image: {
        url: 'https://cdn.example/og.png',
        width: 1200,
        height: 630,
        alt: 'A harbour at dawn',
      },
      oembedUrl: null,
    });
  });

  it('falls back to Twitter card tags', () => {
    const metadata = extractLinkMetadata(
      page(`
        <title>Plain title</title>
        <meta name="twitter:card" content="summary_large_image">
        <meta name="twitter:title" content="Twitter title">
        <meta name="twitter:description" content="Twitter description">
        <meta name="twitter:image" content="/img/card.jpg">
        <meta name="twitter:image:alt" content="A card">
      `),
      PAGE,
    );
    expect(metadata.title).toBe('Twitter title');
    expect(metadata.description).toBe('Twitter description');
    expect(metadata.siteName).toBeNull();
    expect(metadata.image).toEqual({
      url: 'https://news.example/img/card.jpg',
      width: null,
      height: null,
      alt: 'A card',
    });
  });

  it('falls back to <title> and the description meta tag', () => {
    const metadata = extractLinkMetadata(
      page('<TITLE>  Just a\n   title </TITLE><META NAME="Description" CONTENT="Words">'),
      PAGE,
    );
    expect(metadata).toEqual({
      title: 'Just a title',
      description: 'Words',
      siteName: null,
      image: null,
      oembedUrl: null,
    });
  });

  it('skips an empty OpenGraph title for the next candidate', () => {
    const metadata = extractLinkMetadata(
      page('<meta property="og:title" content="  "><title>Fallback</title>'),
      PAGE,
    );
    expect(metadata.title).toBe('Fallback');
  });

  it('resolves a relative og:image against the page URL, or the <base> when there is one', () => {
    expect(
      extractLinkMetadata(page('<meta property="og:image" content="../pic.png">'), PAGE).image?.url,
    ).toBe('https://news.example/pic.png');
    expect(
      extractLinkMetadata(page('<meta property="og:image" content="//cdn.example/a.png">'), PAGE)
        .image?.url,
    ).toBe('https://cdn.example/a.png');
    expect(
      extractLinkMetadata(
        page(
          '<base href="https://static.example/assets/"><meta property="og:image" content="a.png">',
        ),
        PAGE,
      ).image?.url,
    ).toBe('https://static.example/assets/a.png');
  });

  it('refuses images that are not http(s)', () => {
    for (const url of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:image/png;base64,AAAA',
      'file:///etc/passwd',
      'ftp://files.example/a.png',
    ]) {
      const metadata = extractLinkMetadata(
        page(`<meta property="og:image" content="${url}">`),
        PAGE,
      );
      expect(metadata.image, url).toBeNull();
    }
    // A refused OpenGraph image leaves the Twitter one.
    const metadata = extractLinkMetadata(
      page(
        '<meta property="og:image" content="javascript:void(0)"><meta name="twitter:image" content="https://x.example/t.png">',
      ),
      PAGE,
    );
    expect(metadata.image?.url).toBe('https://x.example/t.png');
  });

  it('ignores image sizes that are not positive whole numbers', () => {
    const metadata = extractLinkMetadata(
      page(
        '<meta property="og:image" content="/a.png"><meta property="og:image:width" content="-5"><meta property="og:image:height" content="12px">',
      ),
      PAGE,
    );
    expect(metadata.image).toMatchObject({ width: null, height: null });
  });

  it('decodes entities and drops control characters', () => {
    const metadata = extractLinkMetadata(
      page(
        '<title>Fish &amp; Chips &mdash; &#x1F41F; &lt;b&gt;</title><meta property="og:description" content="caf&eacute;&#7;&#x202E;txt.exe">',
      ),
      PAGE,
    );
    expect(metadata.title).toBe('Fish & Chips — 🐟 <b>');
    expect(metadata.description).toBe('café txt.exe');
  });

  it('caps lengths in graphemes, keeping emoji whole', () => {
    const family = '👨‍👩‍👧';
    const metadata = extractLinkMetadata(
      page(
        `<meta property="og:title" content="${family.repeat(300)}"><meta property="og:description" content="${'word '.repeat(400)}"><meta property="og:site_name" content="${'s'.repeat(150)}">`,
      ),
      PAGE,
    );
    expect(graphemes(metadata.title ?? '')).toBe(LINK_METADATA_LIMITS.title);
    expect(metadata.title?.startsWith(family.repeat(199))).toBe(true);
    expect(metadata.title?.endsWith('…')).toBe(true);
    expect(graphemes(metadata.description ?? '')).toBeLessThanOrEqual(
      LINK_METADATA_LIMITS.description,
    );
    expect(metadata.description?.endsWith('word…')).toBe(true);
    expect(metadata.siteName).toBe(`${'s'.repeat(99)}…`);
  });

  it('finds the oEmbed discovery link', () => {
    const metadata = extractLinkMetadata(
      page(`
        <link rel="alternate" type="application/rss+xml" href="/feed.xml">
        <link rel="alternate" type="application/json+oembed" href="/oembed?url=x&amp;format=json" title="oEmbed">
        <link rel="alternate" type="text/xml+oembed" href="/oembed?format=xml">
      `),
      PAGE,
    );
    expect(metadata.oembedUrl).toBe('https://news.example/oembed?url=x&format=json');
  });

  it('looks only at the head', () => {
    const metadata = extractLinkMetadata(
      page(
        '<title>Head title</title>',
        '<title>Body title</title><meta property="og:title" content="In the body"><meta property="og:image" content="/body.png">',
      ),
      PAGE,
    );
    expect(metadata.title).toBe('Head title');
    expect(metadata.image).toBeNull();
  });

  it('stops at the body even when the head is not closed', () => {
    const metadata = extractLinkMetadata(
      '<html><meta property="og:title" content="Early"><body><meta property="og:description" content="Late">',
      PAGE,
    );
    expect(metadata.title).toBe('Early');
    expect(metadata.description).toBeNull();
  });

  it('reads a long head that spans several parser chunks', () => {
    const filler = `<meta name="filler" content="${'x'.repeat(40_000)}">`;
    const metadata = extractLinkMetadata(
      page(`${filler}<meta property="og:title" content="After the filler">`),
      PAGE,
    );
    expect(metadata.title).toBe('After the filler');
  });

  it('does not throw on garbage', () => {
    const garbage = [
      '',
      '<<<>>>',
      '<meta',
      '<title>never closed',
      '<head><meta property="og:image" content="http://[bad">',
      '\u0000\u0001\uFFFD'.repeat(100),
      '<'.repeat(10_000),
      '<div>'.repeat(5000),
    ];
    for (const input of garbage) {
      expect(() => extractLinkMetadata(input, PAGE)).not.toThrow();
    }
    // As in browsers, an unclosed title runs to the end of the document.
    expect(extractLinkMetadata('<title>never closed', PAGE).title).toBe('never closed');
    expect(
      extractLinkMetadata('<meta property="og:image" content="/a.png">', 'not a url').image,
    ).toBeNull();
    fc.assert(
      fc.property(fc.string(), fc.string(), (html, url) => {
        const metadata = extractLinkMetadata(html, url);
        expect(Object.keys(metadata)).toHaveLength(5);
      }),
    );
  });
});

describe('cleanText', () => {
  it('returns null for empty or invisible text', () => {
    expect(cleanText(undefined, 10)).toBeNull();
    expect(cleanText(' \n\t\u0007 ', 10)).toBeNull();
  });

  it('keeps text within the limit unchanged apart from whitespace', () => {
    expect(cleanText(' a\u00a0 b ', 10)).toBe('a b');
    expect(cleanText('1234567890', 10)).toBe('1234567890');
    expect(cleanText('12345678901', 10)).toBe('123456789…');
  });
});
