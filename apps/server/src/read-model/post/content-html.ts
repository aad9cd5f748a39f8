import { splitByEntities, type Entity } from '@perch/contract';
import escapeHtml from 'escape-html';

/** Where a post's links point: relative for Perch's own pages, absolute in feeds. */
export interface ContentLinks {
  tag: (tag: string) => string;
  /** A mentioned member's page; null leaves the mention as text (a member hidden from readers). */
  member: (username: string, userId: string) => string | null;
}

function entityHtml(text: string, entity: Entity, links: ContentLinks): string {
  if (entity.type === 'tag') {
    return `<a href="${escapeHtml(links.tag(entity.tag))}" class="hashtag" rel="tag">${escapeHtml(text)}</a>`;
  }
  const href = links.member(entity.username.toLowerCase(), entity.userId);
  if (href === null) return escapeHtml(text);
  return `<a href="${escapeHtml(href)}" class="mention">${escapeHtml(text)}</a>`;
}

/**
 * A post's or comment's text as HTML, the one way Perch writes it outside its app (public pages,
 * feeds): everything escaped, tags and mentions as links, a blank line starting a new paragraph
 * and a single line break kept as <br>.
 */
export function contentHtml(
  text: string,
  entities: readonly Entity[],
  links: ContentLinks,
): string {
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
