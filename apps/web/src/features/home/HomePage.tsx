import { PageHeader } from '../layout/PageHeader';
import { QueuedPosts } from '../outbox/QueuedPosts';
import { PostComposer } from '../posts/PostComposer';
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
