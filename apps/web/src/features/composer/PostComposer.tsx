import type { Post } from '@perch/contract';
import { useCallback, useMemo, useState } from 'react';
import { Avatar } from '../../shared/components/Avatar';
import { Button } from '../../shared/components/Button';
import { useRequiredSession } from '../../entities/session/SessionProvider';
import { DraftsMenu } from '../drafts';
import { useDraft, type DraftContent } from '../drafts';
import { PostEditor } from './PostEditor';
import {
  draftWarnings,
  editorWarningsOf,
  NO_WARNINGS,
  warningsToSend,
  type EditorWarnings,
} from './Warnings';
import { useCreatePost } from '../../entities/post/posts.queries';
import { NEW_POLL, pollToSend, type PollDraft } from './PollFields';
import { QuoteAttachment } from './QuoteAttachment';
import { trackAlbumProgress, type AlbumItem } from './AlbumFields';

export const COMPOSER_PLACEHOLDER = "What's is in your mind?";

/** The Post button looks disabled while the text is blank. */
const submitClass = (text: string) =>
  text.trim() === ''
    ? 'post-composer__submit post-composer__submit--blank'
    : 'post-composer__submit';

const isEmptyPost = (content: DraftContent) =>
  content.text.trim() === '' &&
  !content.image &&
  !content.media?.length &&
  !content.poll?.options.some((option) => option.trim() !== '');

/** The new-post box keeps its images as an album, never as a draft's single image. */
const NO_SINGLE_IMAGE = { image: null, altText: '', removeImage: false } as const;

/** The album's images to upload: the new-post box holds only images picked on this device. */
const picked = (album: AlbumItem[]) =>
  album.flatMap((item) => ('file' in item ? [{ file: item.file, alt: item.alt }] : []));

/** A kept draft's images as an album, a single image of an older draft included. */
const albumOf = (kept: DraftContent): AlbumItem[] =>
  kept.media?.length
    ? kept.media
    : kept.image
      ? [{ id: crypto.randomUUID(), file: kept.image, alt: kept.altText }]
      : [];

interface PostComposerProps {
  /** Called after the post was created (the dialog holding the box closes then). */
  onPosted?: () => void;
  /** Focus the text when the box appears (in a dialog). */
  autoFocus?: boolean;
  className?: string;
  /** The post the new post quotes, shown under the text until removed. */
  quote?: Post;
}

/**
 * The new-post box: text, up to ten images in order (each uploaded on Post with its own progress
 * bar and described by its own alt text), emojis,
 * and a content warning and sensitive mark. The Post button looks disabled while the text is blank, yet still submits; the
 * server then refuses a post with neither text nor image and the failure toast says so. What is
 * typed is kept as a draft on this device until it is posted (features/drafts).
 */
export function PostComposer({ onPosted, autoFocus = false, className, quote }: PostComposerProps) {
  const { user } = useRequiredSession();
  const [text, setText] = useState('');
  const [album, setAlbum] = useState<AlbumItem[]>([]);
  const [warnings, setWarnings] = useState<EditorWarnings>(NO_WARNINGS);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [progress, setProgress] = useState<Record<string, number> | null>(null);
  const [poll, setPoll] = useState<PollDraft | null>(null);
  const [quoted, setQuoted] = useState<Post | null>(quote ?? null);
  const create = useCreatePost();
  const draft = useDraft({
    memberId: user._id,
    postId: null,
    content: useMemo(
      () => ({ text, ...NO_SINGLE_IMAGE, media: album, poll, ...draftWarnings(warnings) }),
      [text, album, poll, warnings],
    ),
    restore: useCallback((kept: DraftContent) => {
      setText(kept.text);
      setAlbum(albumOf(kept));
      setWarnings(editorWarningsOf(kept));
      setPoll(kept.poll ?? null);
    }, []),
    isPristine: isEmptyPost,
  });

  const submit = () => {
    if (create.isPending) return;
    create.mutate(
      {
        content: text.trim(),
        image: null,
        altText: '',
        media: picked(album),
        ...warningsToSend(warnings),
        ...(quoted ? { quoteId: quoted._id } : {}),
        onMediaProgress: trackAlbumProgress(album, setProgress),
        poll: poll && album.length === 0 ? pollToSend(poll) : null,
      },
      {
        onSuccess: () => {
          setText('');
          setAlbum([]);
          setWarnings(NO_WARNINGS);
          setPoll(null);
          setQuoted(null);
          setEmojiOpen(false);
          void draft.clear();
          onPosted?.();
        },
        onSettled: () => {
          setProgress(null);
        },
      },
    );
  };

  return (
    <section
      className={['post-composer', className].filter(Boolean).join(' ')}
      aria-label="New post"
    >
      <PostEditor
        text={text}
        onTextChange={setText}
        album={album}
        onAlbumChange={setAlbum}
        albumProgress={progress}
        warnings={warnings}
        onWarningsChange={setWarnings}
        busy={create.isPending}
        emojiOpen={emojiOpen}
        onEmojiOpenChange={setEmojiOpen}
        onSubmit={submit}
        poll={poll}
        onPollChange={setPoll}
        newPoll={NEW_POLL}
        textLabel="Post text"
        placeholder={COMPOSER_PLACEHOLDER}
        autoFocus={autoFocus}
        leading={<Avatar src={user.avatarURL} size="md" className="post-composer__avatar" />}
        actions={<ComposerActions draft={draft} text={text} busy={create.isPending} />}
      />
      {quoted && <QuoteAttachment post={quoted} onChange={setQuoted} />}
    </section>
  );
}

/** The composer's drafts menu and its Post button. */
function ComposerActions({
  draft,
  text,
  busy,
}: {
  draft: ReturnType<typeof useDraft>;
  text: string;
  busy: boolean;
}) {
  return (
    <>
      <DraftsMenu
        drafts={draft.drafts}
        currentId={draft.currentId}
        onOpen={(kept) => void draft.open(kept)}
        onDiscard={(kept) => void draft.discard(kept)}
      />
      <Button type="submit" className={submitClass(text)} loading={busy}>
        Post
      </Button>
    </>
  );
}
