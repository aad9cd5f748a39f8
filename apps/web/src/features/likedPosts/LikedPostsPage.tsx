import { PageHeader } from '../../shared/components/PageHeader';
import { PostFeed } from '../posts';

export function LikedPostsPage() {
  return (
    <section className="page">
      <PageHeader title="Liked Posts" />
      <PostFeed source={{ kind: 'liked' }} emptyText="No Liked Posts Yet!" />
    </section>
  );
}
