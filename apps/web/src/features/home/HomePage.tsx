import { PageHeader } from '../../shared/components/PageHeader';
import { QueuedPosts } from '../offlineQueue/QueuedPosts';
import { PostComposer } from '../composer/PostComposer';
import { PostFeed } from '../posts/PostFeed';
import { NewPostsPill } from './NewPostsPill';

export function HomePage() {
  return (
    <section className="page">
      <PageHeader title="Home" />
      <PostComposer className="home__composer" />
      <QueuedPosts />
      <PostFeed
        source={{ kind: 'home' }}
        emptyText="Your feed is empty. Share your first post or follow people to fill it."
        showSort
        banner={<NewPostsPill />}
      />
    </section>
  );
}
