import escapeHtml from 'escape-html';
import type { PostQuote } from '@perch/contract';
/** Where a feed's links point: absolute addresses of member and tag pages. */
export interface FeedLinks {
  member: (username: string) => string;
  tag: (tag: string) => string;
}

const TITLE_MAX = 80;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

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

/**
 * A post's HTML for a feed, its content warning first when it has one: a feed reader shows
 * everything at once, so the warning at least comes before what it warns of.
 */
export function warned(contentWarning: string | null, html: string): string {
  if (contentWarning === null) return html;
  return `<p><strong>Content warning: ${escapeHtml(contentWarning)}</strong></p>${html}`;
}

/** The line under a quote's text naming the post it quotes, with a link; empty for no quote. */
export function quotingLine(
  quote: PostQuote | null,
  postLink: (username: string, postId: string) => string,
): string {
  if (quote === null) return '';
  if (quote.state === 'unavailable') return '<p>Quoting a post that is unavailable.</p>';
  const url = escapeHtml(postLink(quote.post.author.username, quote.post.id));
  return `<p>Quoting <a href="${url}">${url}</a></p>`;
}
