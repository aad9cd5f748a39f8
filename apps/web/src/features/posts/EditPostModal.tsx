import type { Post } from '@perch/contract';
import { useCallback, useId, useMemo, useState } from 'react';
import { Button } from '../../shared/components/Button';
import { Modal } from '../../shared/components/Modal';
import { useRequiredSession } from '../../entities/session/SessionProvider';
import { useDraft, type DraftContent } from '../drafts';
import {
  draftWarnings,
  editorWarningsOf,
  PostEditor,
  warningsToSend,
  type EditorImage,
  type EditorWarnings,
} from '../composer';
import { useEditPost, type ImageChange } from '../../entities/post/posts.queries';

interface EditPostModalProps {
  post: Post;
  onClose: () => void;
}

/** Whether a draft holds nothing the post does not already have. */
function isUnchanged(post: Post, content: DraftContent): boolean {
  return (
    content.text === post.content &&
    !content.image &&
    !content.removeImage &&
    content.altText === (post.mediaAlt ?? '') &&
    content.contentWarning === post.contentWarning &&
    content.sensitive === post.sensitive
  );
}

/** What a draft keeps of the dialog. */
function draftOf(
  text: string,
  image: ImageChange,
  altText: string,
  warnings: EditorWarnings,
): DraftContent {
  return {
    text,
    image: image.kind === 'replace' ? image.file : null,
    removeImage: image.kind === 'remove',
    altText,
    ...draftWarnings(warnings),
  };
}

/** The image change a kept draft holds. */
function imageChangeOf(kept: DraftContent): ImageChange {
  if (kept.image) return { kind: 'replace', file: kept.image };
  return kept.removeImage ? { kind: 'remove' } : { kind: 'keep' };
}

/** The image the editor shows: a new one picked, the post's own, or none. */
function shownImage(post: Post, image: ImageChange): EditorImage {
  if (image.kind === 'replace') return { kind: 'file', file: image.file };
  if (image.kind === 'keep' && post.mediaURL) return { kind: 'url', url: post.mediaURL };
  return null;
}

/**
 * The 'Edit Post' dialog: the text, the image (remove it, or pick another one, uploaded on
 * Save), emojis, the content warning and the sensitive mark; Cancel leaves the post as it was, Save stores it and closes. Changes are kept
 * as a draft on this device until saved or cancelled: closing the dialog otherwise (Escape, ×, a
 * reload) and opening it again brings them back.
 */
export function EditPostModal({ post, onClose }: EditPostModalProps) {
  const formId = useId();
  const [text, setText] = useState(post.content);
  const [image, setImage] = useState<ImageChange>({ kind: 'keep' });
  const [altText, setAltText] = useState(post.mediaAlt ?? '');
  const [warnings, setWarnings] = useState<EditorWarnings>(() => editorWarningsOf(post));
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const edit = useEditPost();
  const { user } = useRequiredSession();
  const draft = useDraft({
    memberId: user._id,
    postId: post._id,
    content: useMemo(
      () => draftOf(text, image, altText, warnings),
      [text, image, altText, warnings],
    ),
    restore: useCallback((kept: DraftContent) => {
      setText(kept.text);
      setAltText(kept.altText);
      setWarnings(editorWarningsOf(kept));
      setImage(imageChangeOf(kept));
    }, []),
    isPristine: (content) => isUnchanged(post, content),
  });
  const cancel = () => {
    void draft.clear();
    onClose();
  };

  const save = () => {
    if (edit.isPending) return;
    edit.mutate(
      {
        post,
        content: text.trim(),
        image,
        altText,
        ...warningsToSend(warnings),
        onProgress: image.kind === 'replace' ? setProgress : undefined,
      },
      {
        onSuccess: () => {
          void draft.clear();
          onClose();
        },
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
          <Button variant="secondary" onClick={cancel}>
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
        image={shownImage(post, image)}
        onPickImage={(file) => {
          setImage({ kind: 'replace', file });
          // A new picture needs its own description.
          setAltText('');
        }}
        onRemoveImage={() => {
          setImage({ kind: 'remove' });
          setAltText('');
        }}
        altText={altText}
        onAltTextChange={setAltText}
        warnings={warnings}
        onWarningsChange={setWarnings}
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
