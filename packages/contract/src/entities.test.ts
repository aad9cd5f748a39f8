import { describe, expect, it } from 'vitest';
import {
  ENTITIES_MAX,
  TAG_MAX_LENGTH,
  findEntities,
  mentionedNamesOf,
  normalizeTag,
  splitByEntities,
  tagsOf,
  type FoundEntity,
} from './entityRules';
import type { Entity } from './entities';

/** What each entity covers in the text, with what it stands for: `#written=tag`, `@written`. */
function covered(text: string): string[] {
  return findEntities(text).map((entity) => {
    const written = text.slice(entity.start, entity.end);
    return entity.type === 'tag' ? `${written}=${entity.tag}` : `${written}=@${entity.username}`;
  });
}

/** Entities as the server would answer them, every mention resolved to a made-up member. */
const resolved = (found: readonly FoundEntity[]): Entity[] =>
  found.map((entity) =>
    entity.type === 'tag' ? entity : { ...entity, userId: `id_${entity.username.toLowerCase()}` },
  );

describe('tags', () => {
  it('ends a tag at punctuation around it', () => {
    expect(covered('#tag.')).toEqual(['#tag=tag']);
    expect(covered('(#tag)')).toEqual(['#tag=tag']);
    expect(covered("#tag's")).toEqual(['#tag=tag']);
    expect(covered('#tag’s')).toEqual(['#tag=tag']);
    expect(covered('#tag,#other')).toEqual(['#tag=tag', '#other=other']);
    expect(covered('"#tag"! ¿#otra? [#x1]')).toEqual(['#tag=tag', '#otra=otra', '#x1=x1']);
    expect(covered('#tag-x #a/b')).toEqual(['#tag=tag', '#a=a']);
    expect(covered('line\n#tag\t#two')).toEqual(['#tag=tag', '#two=two']);
  });

  it('finds tags next to emoji, with offsets in UTF-16 units', () => {
    expect(covered('😀#tag😀')).toEqual(['#tag=tag']);
    expect(findEntities('😀#tag😀')).toEqual([{ type: 'tag', tag: 'tag', start: 2, end: 6 }]);
    expect(covered('#tag😀x')).toEqual(['#tag=tag']);
    expect(covered('🇫🇷#paris 👍🏽#ok 👨‍💻#code')).toEqual(['#paris=paris', '#ok=ok', '#code=code']);
    // An emoji inside a tag ends it.
    expect(covered('#ta😀g')).toEqual(['#ta=ta']);
    expect(covered('😀😀 #après 😀 @some_one 😀')).toEqual(['#après=après', '@some_one=@some_one']);
  });

  it('finds a tag right after an emoji written with a variation selector', () => {
    // ❤️ and ☕️ are U+2764 / U+2615 followed by U+FE0F, as phones type them.
    expect(covered('I ❤️#perch')).toEqual(['#perch=perch']);
    expect(covered('☕️#coffee ✨️@sparkle')).toEqual(['#coffee=coffee', '@sparkle=@sparkle']);
  });

  it('does not take a letter outside the BMP before # or @ for a separator', () => {
    expect(findEntities('𝐀#tag 𝐀@someone')).toEqual([]);
  });

  it('does not find tags inside links', () => {
    expect(findEntities('https://x.org/page#section')).toEqual([]);
    expect(findEntities('see www.x.org/#a')).toEqual([]);
    expect(findEntities('HTTP://X.ORG/a?b=#c')).toEqual([]);
    expect(findEntities('<https://x.org/@bob#top>')).toEqual([]);
    expect(covered('https://x.org/page#section #real')).toEqual(['#real=real']);
  });

  it('wants a separator before # and a letter in the tag', () => {
    expect(findEntities('a#b')).toEqual([]);
    expect(findEntities('café#tag')).toEqual([]);
    expect(findEntities('&#39; x/#y ##z')).toEqual([]);
    expect(findEntities('#123')).toEqual([]);
    expect(findEntities('#_ #__1')).toEqual([]);
    expect(covered('#a123 #123a #_a')).toEqual(['#a123=a123', '#123a=123a', '#_a=_a']);
    expect(covered('#tag#other')).toEqual(['#tag=tag']);
  });

  it('normalises tags of any script to NFKC lower case', () => {
    expect(covered('#日本語')).toEqual(['#日本語=日本語']);
    expect(covered('#café')).toEqual(['#café=café']);
    expect(covered('#Ünïcödé')).toEqual(['#Ünïcödé=ünïcödé']);
    expect(covered('#ﬁ')).toEqual(['#ﬁ=fi']);
    expect(covered('#ПРИВЕТ #Perch #PERCH')).toEqual([
      '#ПРИВЕТ=привет',
      '#Perch=perch',
      '#PERCH=perch',
    ]);
    // A decomposed é is the composed one.
    expect(findEntities('#cafe\u0301')[0]).toMatchObject({ tag: 'café', start: 0, end: 6 });
    expect(normalizeTag('Café')).toBe('café');
    expect(normalizeTag('123')).toBeNull();
    expect(normalizeTag('a b')).toBeNull();
  });

  it('keeps tags up to TAG_MAX_LENGTH characters', () => {
    const longest = 'a'.repeat(TAG_MAX_LENGTH);
    expect(covered(`#${longest}`)).toEqual([`#${longest}=${longest}`]);
    expect(findEntities(`#${longest}b`)).toEqual([]);
    const wide = '語'.repeat(TAG_MAX_LENGTH);
    expect(tagsOf(findEntities(`#${wide}`))).toEqual([wide]);
  });

  it('finds 50 tags in one post, in order', () => {
    const names = Array.from({ length: 50 }, (_, i) => `topic${i}`);
    const text = names.map((name) => `#${name}`).join(' ');
    const found = findEntities(text);
    expect(found.map((entity) => text.slice(entity.start, entity.end))).toEqual(
      names.map((name) => `#${name}`),
    );
    expect(tagsOf(found)).toEqual(names);
  });

  it('keeps repeated tags as occurrences, and at most ENTITIES_MAX distinct ones', () => {
    const found = findEntities('#Perch and #perch, #PERCH');
    expect(found).toHaveLength(3);
    expect(tagsOf(found)).toEqual(['perch']);

    const names = Array.from({ length: ENTITIES_MAX + 20 }, (_, i) => `t${i}`);
    const text = `${names.map((name) => `#${name}`).join(' ')} #t0 #${names.at(-1) ?? ''} @late_one`;
    const many = findEntities(text);
    expect(tagsOf(many)).toEqual(names.slice(0, ENTITIES_MAX));
    // Another occurrence of a kept tag is kept; a new one after the cap is not.
    expect(many).toHaveLength(ENTITIES_MAX + 1);
    expect(text.slice(many.at(-1)?.start, many.at(-1)?.end)).toBe('#t0');
    expect(mentionedNamesOf(many)).toEqual([]);
  });
});

describe('mentions', () => {
  it('finds mentions with punctuation around them', () => {
    expect(covered('@bob_b, (@Carol) @dave. @erin! @frank’s @gina:')).toEqual([
      '@bob_b=@bob_b',
      '@Carol=@Carol',
      '@dave=@dave',
      '@erin=@erin',
      '@frank=@frank',
      '@gina=@gina',
    ]);
    expect(findEntities('hi @bob😀')).toEqual([
      { type: 'mention', username: 'bob', start: 3, end: 7 },
    ]);
  });

  it('does not find e-mail addresses', () => {
    expect(findEntities('me@example.com')).toEqual([]);
    expect(findEntities('write to first.last@example.com or a+b@example.org')).toEqual([]);
    expect(findEntities('é@bob.com x_@bob.com 1@bob.com')).toEqual([]);
    expect(findEntities('@user@host')).toEqual([]);
    expect(findEntities('@bob@')).toEqual([]);
  });

  it('wants 3 to 30 ASCII letters, digits or underscores', () => {
    expect(findEntities('@ab @a @')).toEqual([]);
    const thirty = 'a'.repeat(30);
    expect(covered(`@${thirty}`)).toEqual([`@${thirty}=@${thirty}`]);
    expect(findEntities(`@${'a'.repeat(31)}`)).toEqual([]);
    expect(covered('@abc @A_1 @123')).toEqual(['@abc=@abc', '@A_1=@A_1', '@123=@123']);
  });

  it('does not find mentions after word characters, dots, plus, dashes or slashes', () => {
    expect(findEntities('x.@bob +@bob -@bob /@bob a@bob _@bob')).toEqual([]);
    expect(findEntities('https://medium.com/@someone')).toEqual([]);
    expect(findEntities('https://x.org/?u=@someone')).toEqual([]);
  });

  it('keeps every occurrence; names compare without case', () => {
    const found = findEntities('@Bob and @bob and @BOB');
    expect(found).toHaveLength(3);
    expect(mentionedNamesOf(found)).toEqual(['bob']);
  });
});

describe('splitByEntities', () => {
  const samples = [
    '',
    'plain text',
    '#tag',
    '😀#tag😀 and @someone 🇫🇷 end',
    'Hello #Café world @Bob_B and @nobody_here, see https://x.org/#frag #ﬁ',
    '#a #a #a @abc@def me@example.com #日本語 #Ünïcödé',
    `${Array.from({ length: 50 }, (_, i) => `#t${i}`).join('')} x`,
  ];

  it('gives back the text exactly, each entity covering what was written', () => {
    for (const text of samples) {
      const entities = resolved(findEntities(text));
      const parts = splitByEntities(text, entities);
      expect(parts.map((part) => part.text).join(''), text).toBe(text);
      const entityParts = parts.flatMap((part) => (part.kind === 'entity' ? [part] : []));
      expect(entityParts.map((part) => part.entity)).toEqual(entities);
      for (const part of entityParts) {
        expect(part.text).toBe(text.slice(part.entity.start, part.entity.end));
        expect(part.text[0]).toBe(part.entity.type === 'tag' ? '#' : '@');
      }
      for (const [i, part] of parts.entries()) {
        if (part.kind === 'text') expect(parts[i + 1]?.kind, text).not.toBe('text');
      }
    }
  });

  it('skips entities that overlap or fall outside the text, still giving back the text', () => {
    const text = '#one #two';
    const tag = (start: number, end: number): Entity => ({ type: 'tag', tag: 'x', start, end });
    const parts = splitByEntities(text, [tag(5, 9), tag(0, 4), tag(2, 6), tag(8, 20), tag(3, 3)]);
    expect(parts.map((part) => [part.kind, part.text])).toEqual([
      ['entity', '#one'],
      ['text', ' '],
      ['entity', '#two'],
    ]);
  });
});
