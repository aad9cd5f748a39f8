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
  trackAlbumProgress,
  warningsToSend,
  type AlbumItem,
  type EditorWarnings,
} from '../composer';
import { isPostAlbum, useEditPost } from '../../entities/post/posts.queries';

interface EditPostModalProps {
  post: Post;
  onClose: () => void;
}

/** The post's album as the editor holds it, each image with its description ('' for none). */
const albumOfPost = (post: Post): AlbumItem[] =>
  post.media.map((image) => ({ id: image.url, url: image.url, alt: image.alt ?? '' }));

/** Whether a draft holds nothing the post does not already have. */
function isUnchanged(post: Post, content: DraftContent): boolean {
  return (
    content.text === post.content &&
    isPostAlbum(post, content.media ?? []) &&
    content.contentWarning === post.contentWarning &&
    content.sensitive === post.sensitive
  );
}

/** What a draft keeps of the dialog; an emptied album is marked, as drafts before albums did. */
function draftOf(
  post: Post,
  text: string,
  album: AlbumItem[],
  warnings: EditorWarnings,
): DraftContent {
  return {
    text,
    image: null,
    altText: '',
    removeImage: album.length === 0 && post.media.length > 0,
    media: album,
    ...draftWarnings(warnings),
  };
}

/**
 * The album a kept draft holds. A draft kept before albums has none: it removed the post's
 * image, replaced it with a picked one, or kept it with the description it holds.
 */
function albumOfDraft(post: Post, kept: DraftContent): AlbumItem[] {
  if (kept.media?.length) return kept.media;
  if (kept.removeImage) return [];
  if (kept.image) return [{ id: crypto.randomUUID(), file: kept.image, alt: kept.altText }];
  return albumOfPost(post).map((item, index) =>
    index === 0 ? { ...item, alt: kept.altText } : item,
  );
}

/**
 * The 'Edit Post' dialog: the text, the album (add images, remove them, reorder them and describe
 * each; new ones are uploaded on Save), emojis, the content warning and the sensitive mark; a
 * post with a poll takes no images. Cancel leaves the post as it was, Save stores it and closes.
 * Changes are kept as a draft on this device until saved or cancelled: closing the dialog
 * otherwise (Escape, ×, a reload) and opening it again brings them back.
 */
export function EditPostModal({ post, onClose }: EditPostModalProps) {
  const formId = useId();
  const [text, setText] = useState(post.content);
  const [album, setAlbum] = useState<AlbumItem[]>(() => albumOfPost(post));
  const [warnings, setWarnings] = useState<EditorWarnings>(() => editorWarningsOf(post));
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [progress, setProgress] = useState<Record<string, number> | null>(null);
  const edit = useEditPost();
  const { user } = useRequiredSession();
  const draft = useDraft({
    memberId: user._id,
    postId: post._id,
    content: useMemo(() => draftOf(post, text, album, warnings), [post, text, album, warnings]),
    restore: useCallback(
      (kept: DraftContent) => {
        setText(kept.text);
        setAlbum(albumOfDraft(post, kept));
        setWarnings(editorWarningsOf(kept));
      },
      [post],
    ),
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
        media: album,
        ...warningsToSend(warnings),
        onMediaProgress: trackAlbumProgress(album, setProgress),
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
        album={album}
        onAlbumChange={setAlbum}
        albumProgress={progress}
        noImages={post.poll !== null}
        warnings={warnings}
        onWarningsChange={setWarnings}
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
