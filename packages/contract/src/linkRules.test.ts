import { describe, expect, it } from 'vitest';
import { findLinks, firstLinkOf, LINK_URL_MAX } from './linkRules';

describe('links in post text', () => {
  it('finds http and https links in text order', () => {
    expect(findLinks('see https://a.example/x and http://b.example/y?z=1#f')).toEqual([
      'https://a.example/x',
      'http://b.example/y?z=1#f',
    ]);
  });

  it('leaves out the punctuation that ends a sentence and unopened brackets', () => {
    expect(findLinks('Read https://a.example/page.')).toEqual(['https://a.example/page']);
    expect(findLinks('(see https://a.example/x), then')).toEqual(['https://a.example/x']);
    expect(findLinks('https://en.example/wiki/Perch_(fish)!')).toEqual([
      'https://en.example/wiki/Perch_(fish)',
    ]);
    expect(findLinks('"https://a.example/q?"')).toEqual(['https://a.example/q']);
  });

  it('ignores other schemes, bare hosts and links inside words', () => {
    expect(findLinks('ftp://a.example www.b.example mailto:x@y.example')).toEqual([]);
    expect(findLinks('xhttps://a.example')).toEqual([]);
    expect(findLinks('https:// nothing')).toEqual([]);
  });

  it('answers the first link as a normalised URL', () => {
    expect(firstLinkOf('no link here')).toBeNull();
    expect(firstLinkOf('#tag HTTPS://Example.COM and https://b.example')).toBe(
      'https://example.com/',
    );
  });

  it('skips links with credentials or too long to preview', () => {
    const long = `https://a.example/${'x'.repeat(LINK_URL_MAX)}`;
    expect(firstLinkOf(`${long} https://user:pw@b.example https://c.example/ok`)).toBe(
      'https://c.example/ok',
    );
  });
});
