import { describe, expect, it } from 'vitest';
import { insertMention, mentionAtCaret } from './mentionAtCaret';

const atEnd = (text: string) => mentionAtCaret(text, text.length);

describe('mentionAtCaret', () => {
  it('finds @ and 1 to 30 name characters right before the caret', () => {
    expect(atEnd('@a')).toEqual({ start: 0, end: 2, query: 'a' });
    expect(atEnd('hi @al')).toEqual({ start: 3, end: 6, query: 'al' });
    expect(atEnd('(@al_1')).toEqual({ start: 1, end: 6, query: 'al_1' });
    expect(atEnd('😀@al')).toEqual({ start: 2, end: 5, query: 'al' });
    expect(atEnd(`@${'a'.repeat(30)}`)?.query).toHaveLength(30);
  });

  it('takes the rest of the name after the caret into the part to replace', () => {
    expect(mentionAtCaret('hi @alxx there', 6)).toEqual({ start: 3, end: 8, query: 'al' });
  });

  it('offers nothing where the contract would not see a mention', () => {
    expect(atEnd('@')).toBeNull();
    expect(atEnd('hi @')).toBeNull();
    expect(atEnd('mail me at ann@example')).toBeNull();
    expect(atEnd('a/@al')).toBeNull();
    expect(atEnd('@@al')).toBeNull();
    expect(atEnd('é@al')).toBeNull();
    expect(atEnd(`@${'a'.repeat(31)}`)).toBeNull();
    expect(atEnd('@al ')).toBeNull();
    expect(mentionAtCaret('@al', 10)).toBeNull();
  });
});

describe('insertMention', () => {
  it('replaces the typed part with @username and a space, caret after it', () => {
    const text = 'hey @al';
    const draft = atEnd(text);
    if (!draft) throw new Error('No mention');
    expect(insertMention(text, draft, 'alice')).toEqual({ text: 'hey @alice ', caret: 11 });
  });

  it('does not double a space that follows already', () => {
    const text = 'hey @alx there';
    const draft = mentionAtCaret(text, 7);
    if (!draft) throw new Error('No mention');
    expect(insertMention(text, draft, 'alice')).toEqual({ text: 'hey @alice there', caret: 11 });
  });
});
