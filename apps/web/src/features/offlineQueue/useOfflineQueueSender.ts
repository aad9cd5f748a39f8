import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { userKeys } from '../../entities/member/users.queries';
import { postMessages } from '../../entities/post/messages';
import { postKeys } from '../../entities/post/postKeys';
import { showCreatedPost } from '../../entities/post/posts.queries';
import { useRequiredSession, useSessionStore } from '../../entities/session/SessionProvider';
import { OFFLINE_QUEUE_SENT_MESSAGE } from '../../shared/offlineQueue/backgroundSync';
import { refreshQueuedPosts } from '../../shared/offlineQueue/postQueue';
import { sendQueuedToggles, type ToggleHooks } from '../../shared/offlineQueue/toggleQueue';
import { toggleRefusedMessage } from './messages';
import { sendQueued } from './offlineQueue';
import { sendToggle } from './sendToggle';

/**
 * For the signed-in shell: sends the posts, likes, bookmarks and follows waiting in the offline queue
 * now and whenever the connection returns, showing each post as it arrives and the truth of
 * every list the toggles touched once they are through.
 */
export function useOfflineQueueSender(): void {
  const { token, user } = useRequiredSession();
  const store = useSessionStore();
  const queryClient = useQueryClient();
  useEffect(() => {
    const toggleHooks: ToggleHooks = {
      sent: (_toggle, answer) => {
        // A follow's answer carries the member's own record (following count).
        if ('followUser' in answer) store.updateUser(answer.user);
      },
      refused: (toggle, error) => {
        toast.error(toggleRefusedMessage(toggle, error));
      },
    };
    const sendToggles = async () => {
      if ((await sendQueuedToggles(user._id, token, sendToggle, toggleHooks)) === 0) return;
      void queryClient.invalidateQueries({ queryKey: postKeys.all });
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    };
    const send = () => {
      void sendQueued(user._id, token, {
        sent: (post) => {
          showCreatedPost(queryClient, post, user.username);
        },
        refused: () => {
          toast.error(postMessages.createFailed);
        },
      });
      void sendToggles();
    };
    // The service worker sent some of it (Background Sync): show the lists as they are now.
    const onWorkerMessage = (event: MessageEvent<{ type?: unknown } | null>) => {
      if (event.data?.type !== OFFLINE_QUEUE_SENT_MESSAGE) return;
      void refreshQueuedPosts(user._id);
      void queryClient.invalidateQueries({ queryKey: postKeys.all });
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    };
    const worker = 'serviceWorker' in navigator ? navigator.serviceWorker : null;
    void refreshQueuedPosts(user._id).then(send);
    window.addEventListener('online', send);
    worker?.addEventListener('message', onWorkerMessage);
    return () => {
      window.removeEventListener('online', send);
      worker?.removeEventListener('message', onWorkerMessage);
    };
  }, [queryClient, store, token, user._id, user.username]);
}
