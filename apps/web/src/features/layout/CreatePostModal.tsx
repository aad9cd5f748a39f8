import { Modal } from '../../components/Modal';

interface CreatePostModalProps {
  open: boolean;
  onClose: () => void;
}

export function CreatePostModal({ open, onClose }: CreatePostModalProps) {
  return <Modal open={open} onClose={onClose} title="Create Post" closeLabel="Close" />;
}
