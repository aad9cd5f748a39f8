import type { Post } from '@perch/contract';
import { useId, useState } from 'react';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { PostEditor, type EditorImage } from './PostEditor';
import { useEditPost, type ImageChange } from './posts.queries';

interface EditPostModalProps {
  post: Post;
  onClose: () => void;
}

/**
 * The 'Edit Post' dialog: the text, the image (remove it, or pick another one, uploaded on
 * Save) and emojis; Cancel leaves the post as it was, Save stores it and closes.
 */
export function EditPostModal({ post, onClose }: EditPostModalProps) {
  const formId = useId();
  const [text, setText] = useState(post.content);
  const [image, setImage] = useState<ImageChange>({ kind: 'keep' });
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const edit = useEditPost();

  let shown: EditorImage = null;
  if (image.kind === 'replace') shown = { kind: 'file', file: image.file };
  else if (image.kind === 'keep' && post.mediaURL) shown = { kind: 'url', url: post.mediaURL };

  const save = () => {
    if (edit.isPending) return;
    edit.mutate(
      {
        post,
        content: text.trim(),
        image,
        onProgress: image.kind === 'replace' ? setProgress : undefined,
      },
      {
        onSuccess: onClose,
        onSettled: () => {
          setProgress(null);
        },
      },
    );
  };

  return (
    <Modal
      open
      onClose={onClose}
      title="Edit Post"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={edit.isPending}>
            Save
          </Button>
        </>
      }
    >
      <PostEditor
        formId={formId}
        text={text}
        onTextChange={setText}
        image={shown}
        onPickImage={(file) => {
          setImage({ kind: 'replace', file });
        }}
        onRemoveImage={() => {
          setImage({ kind: 'remove' });
        }}
        progress={progress}
        busy={edit.isPending}
        emojiOpen={emojiOpen}
        onEmojiOpenChange={setEmojiOpen}
        onSubmit={save}
        textLabel="Post text"
        autoFocus
      />
    </Modal>
  );
}
