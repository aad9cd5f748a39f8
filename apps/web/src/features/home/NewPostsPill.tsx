import { useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { ArrowUpIcon } from '../../shared/components/icons';
import { useNewPostsStore } from '../live';
import { reloadHomeFromTop } from '../../entities/post/postCache';
import './home.css';

export function newPostsLabel(count: number): string {
  return count === 1 ? '1 new post' : `${String(count)} new posts`;
}

/**
 * 'N new posts' at the top of Home once followed members have posted since it loaded. Home
 * never inserts them by itself (the list does not move under the reader); pressing the button
 * loads Home's first page again and goes to the top.
 */
export function NewPostsPill() {
  const newPosts = useNewPostsStore();
  const queryClient = useQueryClient();
  const count = useSyncExternalStore(newPosts.subscribe, newPosts.getSnapshot);

  return (
    <div className="new-posts" aria-live="polite">
      {count > 0 && (
        <button
          type="button"
          className="new-posts__pill"
          onClick={() => {
            newPosts.clear();
            window.scrollTo({ top: 0 });
            // The button goes away: keep the keyboard where the new posts are.
            document.getElementById('main-content')?.focus({ preventScroll: true });
            void reloadHomeFromTop(queryClient);
          }}
        >
          <ArrowUpIcon size={16} />
          {newPostsLabel(count)}
        </button>
      )}
    </div>
  );
}
