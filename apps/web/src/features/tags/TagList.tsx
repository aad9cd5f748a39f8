import type { TagSummary } from '@perch/contract';
import { Link } from 'react-router-dom';
import { tagPath } from '../../shared/lib/paths';
import './tags.css';

const numberFormat = new Intl.NumberFormat('en-US');

/** "1 post", "12 posts", "1,204 posts". */
export function postCountText(count: number): string {
  return `${numberFormat.format(count)} ${count === 1 ? 'post' : 'posts'}`;
}

interface TagListProps {
  tags: readonly TagSummary[];
  /** Accessible name of the list. */
  label: string;
}

/** Tags as links to their pages, each with how many posts carry it. */
export function TagList({ tags, label }: TagListProps) {
  return (
    <ul className="tag-list" aria-label={label}>
      {tags.map(({ tag, postCount }) => (
        <li key={tag}>
          <Link to={tagPath(tag)} className="tag-list__link">
            <span className="tag-list__name">#{tag}</span>
            <span className="tag-list__count">{postCountText(postCount)}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
