import { PageHeader } from '../../shared/components/PageHeader';
import { PostFeed } from '../posts';

export function ExplorePage() {
  return (
    <section className="page">
      <PageHeader title="Explore" />
      <PostFeed source={{ kind: 'explore' }} emptyText="No more posts available to explore!" />
    </section>
  );
}
