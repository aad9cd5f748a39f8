import type { Post } from '@perch/contract';
import { Modal } from '../../shared/components/Modal';
import { PostComposer } from '../composer';

interface QuotePostModalProps {
  post: Post;
  onClose: () => void;
}

/** 'Quote post': the new-post box with the post quoted under it, closed once the quote is posted. */
export function QuotePostModal({ post, onClose }: QuotePostModalProps) {
  return (
    <Modal open onClose={onClose} title="Quote post" closeLabel="Close">
      <PostComposer autoFocus onPosted={onClose} className="post-composer--modal" quote={post} />
    </Modal>
  );
}
