import { useId } from 'react';
import { TagList } from './TagList';
import { useTrendingTags } from '../../entities/tag/tags.queries';

export const TRENDING_EMPTY_TEXT = 'Nothing is trending right now.';

interface TrendingTagsProps {
  /** Show the section with a short text when nothing trends (the search page); else hide it. */
  showEmpty?: boolean;
}

/** 'Trending': the tags most members used lately. Hidden until it has something to show. */
export function TrendingTags({ showEmpty = false }: TrendingTagsProps) {
  const headingId = useId();
  const trending = useTrendingTags();
  const tags = trending.data?.tags ?? [];
  if (tags.length === 0 && !(showEmpty && trending.isSuccess)) return null;

  return (
    <section className="trending" aria-labelledby={headingId}>
      <h2 id={headingId} className="trending__title">
        Trending
      </h2>
      {tags.length === 0 ? (
        <p className="trending__empty">{TRENDING_EMPTY_TEXT}</p>
      ) : (
        <TagList tags={tags} label="Trending tags" />
      )}
    </section>
  );
}
