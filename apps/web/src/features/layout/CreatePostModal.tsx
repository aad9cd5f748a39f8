import { Modal } from '../../shared/components/Modal';
import { PostComposer } from '../composer';

interface CreatePostModalProps {
  open: boolean;
  onClose: () => void;
}

/** 'Create Post': the new-post box in a dialog, which closes once the post is created. */
export function CreatePostModal({ open, onClose }: CreatePostModalProps) {
  return (
    <Modal open={open} onClose={onClose} title="Create Post" closeLabel="Close">
      <PostComposer autoFocus onPosted={onClose} className="post-composer--modal" />
    </Modal>
  );
}
