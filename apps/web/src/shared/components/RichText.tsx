import { splitByEntities, type Entity } from '@perch/contract';
import { Link } from 'react-router-dom';
import { profilePath, tagPath } from '../lib/paths';

interface RichTextProps {
  text: string;
  /** The server's tags and mentions of `text` (UTF-16 offsets). */
  entities: readonly Entity[];
}

/**
 * Post or comment text with its tags and mentions as links, exactly as written (`#Café` keeps
 * its case and accent; the link uses the normal form). Rendered as React text nodes, never as
 * HTML, so the text cannot inject markup. The caller's element keeps the line breaks
 * (`white-space: pre-wrap`).
 */
export function RichText({ text, entities }: RichTextProps) {
  if (entities.length === 0) return text;
  return splitByEntities(text, entities).map((part, index) => {
    if (part.kind === 'text') return part.text;
    const { entity } = part;
    const to = entity.type === 'tag' ? tagPath(entity.tag) : profilePath(entity.username);
    return (
      // Parts never move, so their place is a stable key.
      <Link key={index} to={to} className="rich-text__link">
        {part.text}
      </Link>
    );
  });
}
