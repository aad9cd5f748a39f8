import { splitByEntities, type Entity } from '@perch/contract';
import escapeHtml from 'escape-html';

/** Where a feed's links point: absolute addresses of member and tag pages. */
export interface FeedLinks {
  member: (username: string) => string;
  tag: (tag: string) => string;
}

const TITLE_MAX = 80;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function entityHtml(text: string, entity: Entity, links: FeedLinks): string {
  const href =
    entity.type === 'tag' ? links.tag(entity.tag) : links.member(entity.username.toLowerCase());
  const rel = entity.type === 'tag' ? ' rel="tag"' : '';
  const kind = entity.type === 'tag' ? 'hashtag' : 'mention';
  return `<a href="${escapeHtml(href)}" class="${kind}"${rel}>${escapeHtml(text)}</a>`;
}

/**
 * A post's text as HTML for feed readers: everything escaped, tags and mentions as links to their
 * pages, a blank line starting a new paragraph and a single line break kept as <br>.
 */
export function postHtml(text: string, entities: readonly Entity[], links: FeedLinks): string {
  // Entities' offsets count in the text as written, so line endings are made one after the split.
  const html = splitByEntities(text, entities)
    .map((part) =>
      part.kind === 'text'
        ? escapeHtml(part.text.replace(/\r\n?/g, '\n'))
        : entityHtml(part.text, part.entity, links),
    )
    .join('');
  // Escaping and links add no line breaks: those left are the text's own.
  return html
    .trim()
    .split(/\n\s*\n/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map((paragraph) => `<p>${paragraph.trim().replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/**
 * A plain-text title for a post: its first line's opening words, cut at a word where it can be;
 * a post with no text (an image alone) is named by its author.
 */
export function postTitle(text: string, authorName: string): string {
  const firstLine = text.trim().split(/\r?\n/, 1)[0]?.replace(/\s+/g, ' ') ?? '';
  if (firstLine === '') return `Image by ${authorName}`;
  // Cut between characters as people see them, never inside an emoji or a letter with its marks.
  const characters = Array.from(graphemes.segment(firstLine), (part) => part.segment);
  if (characters.length <= TITLE_MAX) return firstLine;
  const cut = characters.slice(0, TITLE_MAX - 1).join('');
  const lastSpace = cut.lastIndexOf(' ');
  return `${lastSpace > TITLE_MAX / 2 ? cut.slice(0, lastSpace) : cut}…`;
}
