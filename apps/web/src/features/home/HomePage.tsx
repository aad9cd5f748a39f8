import { PageHeader } from '../../shared/components/PageHeader';
import { QueuedPosts } from '../offlineQueue';
import { PostComposer } from '../composer';
import { PostFeed } from '../posts';
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
