import type { SearchSort } from '@perch/contract';
import type { FeedSource } from '../../entities/post/postKeys';
import { PostFeed } from '../posts';

const SORT_CHOICES: { value: SearchSort; label: string }[] = [
  { value: 'latest', label: 'Latest' },
  { value: 'top', label: 'Top' },
];

interface PostResultsProps {
  source: Extract<FeedSource, { kind: 'search' }>;
  onSortChange: (sort: SearchSort) => void;
}

/** The Posts tab: Latest or Top, then the matching posts as a feed. */
export function PostResults({ source, onSortChange }: PostResultsProps) {
  return (
    <>
      <div className="search-sort" role="group" aria-label="Order of posts">
        {SORT_CHOICES.map(({ value, label }) => (
          <button
            key={value}
            type="button"
            className="search-sort__choice"
            aria-pressed={source.sort === value}
            onClick={() => {
              if (source.sort !== value) onSortChange(value);
            }}
          >
            {label}
          </button>
        ))}
      </div>
      <PostFeed source={source} emptyText="No posts match your search." />
    </>
  );
}
