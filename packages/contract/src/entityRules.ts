// Plain values only (no zod): clients import them without loading the schemas.

import type { Entity, TagEntity } from './entities';
import { countCharacters } from './text';

/**
 * Tags and mentions in post and comment text. The server recognises them with `findEntities` when
 * text is written and answers them with every post and comment, so that every client links the
 * same words. Offsets are JavaScript string indices (UTF-16 code units), `start` inclusive, `end`
 * exclusive, and cover the `#` or `@`.
 *
 * - A tag is `#` then letters, digits, marks or underscores of any script, at least one of them a
 *   letter, at most TAG_MAX_LENGTH; it starts the text or follows a character that is not one of
 *   those, `&`, `#` or `/`; it is not part of a link. Tags compare without case
 *   (`#Perch` is `#perch`, after Unicode NFKC normalisation): `tag` is that normal form.
 * - A mention is `@` then a username (3 to 30 ASCII letters, digits or underscores) not followed by
 *   another such character or `@`; it starts the text or follows a character that is not a letter,
 *   digit, `_`, `.`, `+`, `-`, `/` or `@` (so e-mail addresses are not mentions). Only members that
 *   exist when the text is written become mention entities; an unknown username stays plain text.
 */
export const TAG_MAX_LENGTH = 64;
/** At most this many distinct tags and mentions of one text are kept. */
export const ENTITIES_MAX = 100;

/** A mention as the text has it, before the server knows whether the member exists. */
export interface MentionCandidate {
  type: 'mention';
  username: string;
  start: number;
  end: number;
}
export type FoundEntity = TagEntity | MentionCandidate;

const URL_PATTERN = /\b(?:https?:\/\/|www\.)[^\s<>"]+/giu;
const TAG_PATTERN = /#([\p{L}\p{M}\p{N}_]+)/gu;
const TAG_BEFORE_FORBIDDEN = /[\p{L}\p{M}\p{N}_&#/]/u;
const LETTER = /\p{L}/u;
const MENTION_PATTERN = /@([A-Za-z0-9_]+)/g;
const MENTION_BEFORE_FORBIDDEN = /[\p{L}\p{M}\p{N}_.+\-/@]/u;

/** The form a tag is stored and compared in; null when it is not a valid tag. */
export function normalizeTag(raw: string): string | null {
  const tag = raw.normalize('NFKC').toLowerCase();
  if (!/^[\p{L}\p{M}\p{N}_]+$/u.test(tag) || !LETTER.test(tag)) return null;
  if (countCharacters(tag) > TAG_MAX_LENGTH) return null;
  return tag;
}

function linkRanges(text: string): [number, number][] {
  return [...text.matchAll(URL_PATTERN)].map((match) => [
    match.index,
    match.index + match[0].length,
  ]);
}

function insideAny(ranges: [number, number][], at: number): boolean {
  return ranges.some(([start, end]) => at >= start && at < end);
}

// Variation selectors and ZWJ make emoji (❤️ is U+2764 U+FE0F); they are marks but end no word.
function isEmojiJoiner(character: string): boolean {
  const code = character.codePointAt(0) ?? 0;
  return (
    code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f) || (code >= 0xe0100 && code <= 0xe01ef)
  );
}

/**
 * The character (code point) that ends just before `index`, or '' at the start; a variation
 * selector or joiner counts as nothing, so `❤️#perch` is a tag.
 */
function characterBefore(text: string, index: number): string {
  if (index === 0) return '';
  const low = text.charCodeAt(index - 1);
  const character =
    low >= 0xdc00 && low <= 0xdfff && index >= 2
      ? text.slice(index - 2, index)
      : text.charAt(index - 1);
  return isEmojiJoiner(character) ? '' : character;
}

function findTags(text: string, links: [number, number][]): TagEntity[] {
  const tags: TagEntity[] = [];
  for (const match of text.matchAll(TAG_PATTERN)) {
    const start = match.index;
    if (TAG_BEFORE_FORBIDDEN.test(characterBefore(text, start))) continue;
    if (insideAny(links, start)) continue;
    const tag = normalizeTag(match[1] ?? '');
    if (tag) tags.push({ type: 'tag', tag, start, end: start + match[0].length });
  }
  return tags;
}

/** Whether an `@` at `index` may start a mention, by the character before it (see above). */
export function mayStartMention(text: string, index: number): boolean {
  return !MENTION_BEFORE_FORBIDDEN.test(characterBefore(text, index));
}

function findMentions(text: string, links: [number, number][]): MentionCandidate[] {
  const mentions: MentionCandidate[] = [];
  for (const match of text.matchAll(MENTION_PATTERN)) {
    const start = match.index;
    const name = match[1] ?? '';
    const end = start + match[0].length;
    if (name.length < 3 || name.length > 30) continue;
    if (text.charAt(end) === '@') continue;
    if (!mayStartMention(text, start)) continue;
    if (insideAny(links, start)) continue;
    mentions.push({ type: 'mention', username: name, start, end });
  }
  return mentions;
}

/**
 * Every tag and mention of the text, in text order. Only the first ENTITIES_MAX distinct tags and
 * distinct usernames are kept (each may occur more than once).
 */
export function findEntities(text: string): FoundEntity[] {
  const links = linkRanges(text);
  const found: FoundEntity[] = [...findTags(text, links), ...findMentions(text, links)].sort(
    (a, b) => a.start - b.start,
  );
  const distinct = new Set<string>();
  return found.filter((entity) => {
    const key = entity.type === 'tag' ? `#${entity.tag}` : `@${entity.username.toLowerCase()}`;
    if (!distinct.has(key)) {
      if (distinct.size >= ENTITIES_MAX) return false;
      distinct.add(key);
    }
    return true;
  });
}

/** The distinct tags of the text, in the order they first occur. */
export function tagsOf(entities: readonly (FoundEntity | Entity)[]): string[] {
  return [...new Set(entities.flatMap((entity) => (entity.type === 'tag' ? [entity.tag] : [])))];
}

/** The distinct usernames the text mentions, lower-cased, in the order they first occur. */
export function mentionedNamesOf(entities: readonly (FoundEntity | Entity)[]): string[] {
  return [
    ...new Set(
      entities.flatMap((entity) =>
        entity.type === 'mention' ? [entity.username.toLowerCase()] : [],
      ),
    ),
  ];
}

/**
 * A text cut into plain runs and entities, for rendering: every character of the text is in
 * exactly one part, in order. Entities that overlap or fall outside the text are skipped.
 */
export type TextPart =
  { kind: 'text'; text: string } | { kind: 'entity'; text: string; entity: Entity };

export function splitByEntities(text: string, entities: readonly Entity[]): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const entity of [...entities].sort((a, b) => a.start - b.start)) {
    if (entity.start < at || entity.end > text.length || entity.end <= entity.start) continue;
    if (entity.start > at) parts.push({ kind: 'text', text: text.slice(at, entity.start) });
    parts.push({ kind: 'entity', text: text.slice(entity.start, entity.end), entity });
    at = entity.end;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return parts;
}
