import { PageHeader } from '../../shared/components/PageHeader';
import { PostFeed } from '../posts';

export function BookmarksPage() {
  return (
    <section className="page">
      <PageHeader title="Bookmarks" />
      <PostFeed source={{ kind: 'bookmarks' }} emptyText="Bookmark posts to see them here!" />
    </section>
  );
}
