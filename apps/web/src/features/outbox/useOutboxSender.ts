import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { useRequiredSession } from '../auth/SessionProvider';
import { postMessages } from '../posts/messages';
import { showCreatedPost } from '../posts/posts.queries';
import { refreshOutbox, sendQueued } from './outbox';

/**
 * For the signed-in shell: sends the posts waiting in the outbox now and whenever the
 * connection returns, showing each as it arrives.
 */
export function useOutboxSender(): void {
  const { token, user } = useRequiredSession();
  const queryClient = useQueryClient();
  useEffect(() => {
    const send = () => {
      void sendQueued(user._id, token, {
        sent: (post) => {
          showCreatedPost(queryClient, post, user.username);
        },
        refused: () => {
          toast.error(postMessages.createFailed);
        },
      });
    };
    void refreshOutbox(user._id).then(send);
    window.addEventListener('online', send);
    return () => {
      window.removeEventListener('online', send);
    };
  }, [queryClient, token, user._id, user.username]);
}
