import { normalizeTag, SearchErrors } from '@perch/contract';
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { badRequestMessage } from '../../shared/lib/api';
import { PageHeader } from '../../shared/components/PageHeader';
import { DEFAULT_SORT, type FeedSource } from '../../entities/post/postKeys';
import { PostFeed } from '../posts';
import { usePostFeed } from '../../entities/post/posts.queries';
import { postCountText } from './TagList';
import './tags.css';

function Problem({ text }: { text: string }) {
  return (
    <p className="feed__state feed__state--error" role="alert">
      {text}
    </p>
  );
}

/** A valid tag's page: its post count and its posts, newest first, page by page. */
function TagPosts({ tag }: { tag: string }) {
  const source = useMemo<FeedSource>(() => ({ kind: 'tag', tag }), [tag]);
  // The same query as the feed below: its first page also carries the tag's count.
  const feed = usePostFeed(source, DEFAULT_SORT);
  const summary = feed.data?.pages[0]?.tag;
  const problem = badRequestMessage(feed.error);

  return (
    <section className="page">
      <PageHeader
        title={`#${summary?.tag ?? tag}`}
        subtitle={summary ? postCountText(summary.postCount) : undefined}
      />
      {problem === null ? (
        <PostFeed source={source} emptyText={`No posts with #${tag} yet.`} />
      ) : (
        <Problem text={problem} />
      )}
    </section>
  );
}

/**
 * `/tags/:tag`: the posts carrying a tag. The address may have any case (`/tags/Perch` is
 * #perch); one that cannot be a tag says so without asking the server.
 */
export function TagPage() {
  const { tag: raw = '' } = useParams();
  const tag = normalizeTag(raw.replace(/^#/, ''));
  if (tag === null) {
    return (
      <section className="page">
        <PageHeader title={`#${raw.replace(/^#/, '')}`} />
        <Problem text={SearchErrors.badTag} />
      </section>
    );
  }
  return <TagPosts key={tag} tag={tag} />;
}
