import { useState, useSyncExternalStore } from 'react';
import { useParams } from 'react-router-dom';
import { Button } from '../../shared/components/Button';
import { AlertIcon } from '../../shared/components/icons';
import { isApiError } from '../../shared/lib/api';
import { PageHeader } from '../../shared/components/PageHeader';
import { PostCard } from './PostCard';
import { RefreshIcon } from '../../shared/components/postIcons';
import { usePost } from '../../entities/post/posts.queries';
import { isDeletePending, subscribeToPendingDeletes } from '../../entities/post/undoableDelete';
import { PostSkeletons } from './PostSkeleton';
import '../../shared/styles/feed.css';
import './posts.css';

/** One post with its comments open: where a notification about it leads. */
export function PostPage() {
  const { postId = '' } = useParams();
  const post = usePost(postId);
  const deleted = useSyncExternalStore(subscribeToPendingDeletes, () => isDeletePending(postId));
  const [commentsOpen, setCommentsOpen] = useState(true);

  let content;
  if (post.isPending) {
    content = <PostSkeletons count={1} />;
  } else if (deleted || (post.isError && isApiError(post.error) && post.error.status === 404)) {
    content = (
      <p className="feed__state feed__state--empty">This post is not available any more.</p>
    );
  } else if (post.isError) {
    content = (
      <div className="feed__state feed__state--error" role="alert">
        <AlertIcon size={28} />
        <p>The post could not be loaded.</p>
        <Button
          variant="secondary"
          size="sm"
          loading={post.isFetching}
          onClick={() => {
            void post.refetch();
          }}
        >
          <RefreshIcon size={16} />
          Retry
        </Button>
      </div>
    );
  } else {
    content = (
      <PostCard
        post={post.data}
        commentsOpen={commentsOpen}
        onCommentsOpenChange={setCommentsOpen}
      />
    );
  }

  return (
    <section className="page">
      <PageHeader title="Post" />
      {content}
    </section>
  );
}
