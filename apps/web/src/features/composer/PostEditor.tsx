import {
  useId,
  useLayoutEffect,
  useRef,
  type DragEvent,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  type SubmitEvent,
} from 'react';
import { MentionListbox, useMentionAutocomplete } from '../mentions';
import {
  EditorToolbar,
  EmojiPanel,
  ImagePreview,
  UploadProgress,
  type EditorImage,
} from './EditorParts';
import { ContentWarningField, SensitiveToggle, type EditorWarnings } from './Warnings';
import { editorPoll, type PollDraft } from './PollFields';
import { AlbumFields, useAlbumPicker, type AlbumItem } from './AlbumFields';
import './composer.css';

export { isImageFile, type EditorImage } from './EditorParts';

export interface PostEditorProps {
  /** Id of the form element, so that buttons outside it (a modal footer) can submit it. */
  formId?: string;
  text: string;
  onTextChange: (text: string) => void;
  image: EditorImage;
  onPickImage: (file: File) => void;
  onRemoveImage: () => void;
  /** The image's description (alt text), edited under its preview. */
  altText: string;
  onAltTextChange: (altText: string) => void;
  /** The content warning and the image's sensitive mark. */
  warnings: EditorWarnings;
  onWarningsChange: (warnings: EditorWarnings) => void;
  /** Share of the image uploaded so far while an upload runs, else null. */
  progress: number | null;
  busy: boolean;
  emojiOpen: boolean;
  onEmojiOpenChange: (open: boolean) => void;
  onSubmit: () => void;
  textLabel: string;
  placeholder?: string;
  /** Marks the text area as the element a dialog focuses first. */
  autoFocus?: boolean;
  /** Shown before the text (the author's avatar). */
  leading?: ReactNode;
  /** Shown at the end of the toolbar (the submit button). */
  actions?: ReactNode;
  className?: string;
  /** The new post's poll (null: none); without onPollChange the editor offers no poll. */
  poll?: PollDraft | null;
  onPollChange?: (poll: PollDraft | null) => void;
  /** The poll a Poll button starts. */
  newPoll?: PollDraft;
  /** The new post's images in order; with onAlbumChange the editor takes several images. */
  album?: AlbumItem[];
  onAlbumChange?: (album: AlbumItem[]) => void;
  /** Share uploaded so far of each album image being uploaded, by its id. */
  albumProgress?: Record<string, number> | null;
}

/** The props with `image` set while the album has images, so that the poll gives way to them. */
function withAlbumImage(props: PostEditorProps): PostEditorProps {
  const first = props.album?.[0];
  return first ? { ...props, image: { kind: 'file', file: first.file } } : props;
}

/** Inserts an emoji at the caret, which then follows it. */
function useEmojiInsertion(
  text: string,
  onTextChange: (text: string) => void,
  textRef: RefObject<HTMLTextAreaElement | null>,
) {
  const caretRef = useRef<number | null>(null);

  useLayoutEffect(() => {
    const caret = caretRef.current;
    const area = textRef.current;
    if (caret === null || !area) return;
    caretRef.current = null;
    area.setSelectionRange(caret, caret);
  }, [text, textRef]);

  return (emoji: string) => {
    const area = textRef.current;
    const start = area?.selectionStart ?? text.length;
    const end = area?.selectionEnd ?? text.length;
    caretRef.current = start + emoji.length;
    onTextChange(text.slice(0, start) + emoji + text.slice(end));
  };
}

/** Lets images dropped on the editor join the album. */
const dropTarget = (onDropFiles: (files: File[]) => void) => ({
  onDragOver: (event: DragEvent<HTMLFormElement>) => {
    if (event.dataTransfer.types.includes('Files')) event.preventDefault();
  },
  onDrop: (event: DragEvent<HTMLFormElement>) => {
    if (event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    onDropFiles([...event.dataTransfer.files]);
  },
});

/** Cmd or Ctrl with Enter sends the form. */
function submitOnModEnter(event: KeyboardEvent<HTMLTextAreaElement>): void {
  if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
    event.preventDefault();
    event.currentTarget.form?.requestSubmit();
  }
}

type ImageFieldsProps = Pick<
  PostEditorProps,
  | 'image'
  | 'altText'
  | 'onAltTextChange'
  | 'onRemoveImage'
  | 'warnings'
  | 'onWarningsChange'
  | 'progress'
  | 'busy'
  | 'poll'
  | 'onPollChange'
  | 'newPoll'
  | 'album'
  | 'onAlbumChange'
  | 'albumProgress'
> & { albumNotice: string | null };

/**
 * Under the text: the image with its description and sensitive mark, the upload's progress, and
 * the new post's poll.
 */
function ImageFields(props: ImageFieldsProps) {
  const { image, altText, onAltTextChange, onRemoveImage, warnings, onWarningsChange } = props;
  const { progress, busy, album, onAlbumChange } = props;
  return (
    <>
      {album && onAlbumChange && (
        <AlbumFields
          album={album}
          onChange={onAlbumChange}
          progress={props.albumProgress ?? null}
          busy={busy}
          notice={props.albumNotice}
        />
      )}
      {image && !album && (
        <ImagePreview
          image={image}
          altText={altText}
          onAltTextChange={onAltTextChange}
          onRemoveImage={onRemoveImage}
          busy={busy}
        />
      )}
      {image && (
        <SensitiveToggle
          checked={warnings.sensitive}
          implied={warnings.open}
          onChange={(sensitive) => {
            onWarningsChange({ ...warnings, sensitive });
          }}
          disabled={busy}
        />
      )}
      {progress !== null && <UploadProgress progress={progress} />}
      {editorPoll(props).fields}
    </>
  );
}

/** The toolbar under the editor, with the Poll button when the editor offers a poll. */
function Toolbar(props: PostEditorProps & { emojiId: string; onPickImages?: (f: File[]) => void }) {
  const poll = editorPoll(props);
  return (
    <EditorToolbar
      hasImage={props.image !== null}
      onPickImage={props.onPickImage}
      onPickImages={props.onPickImages}
      busy={props.busy}
      emojiOpen={props.emojiOpen}
      emojiId={props.emojiId}
      onEmojiOpenChange={props.onEmojiOpenChange}
      warnings={props.warnings}
      onWarningsChange={props.onWarningsChange}
      actions={props.actions}
      imageDisabled={poll.imageDisabled}
      tools={poll.tool}
    />
  );
}

/**
 * The text, image and emoji part of the new-post box and of the Edit Post dialog: a growing
 * text area that offers members while an @mention is typed, an image picker with an immediate
 * local preview (and upload progress), the emoji picker, which inserts at the caret, and the
 * content warning and sensitive mark.
 */
export function PostEditor(props: PostEditorProps) {
  const {
    formId,
    text,
    onTextChange,
    warnings,
    onWarningsChange,
    busy,
    emojiOpen,
    onEmojiOpenChange,
    onSubmit,
    textLabel,
    placeholder,
    autoFocus = false,
    leading,
    className,
  } = props;
  const textId = useId();
  const emojiId = useId();
  const textRef = useRef<HTMLTextAreaElement>(null);
  const mention = useMentionAutocomplete({ text, onTextChange, fieldRef: textRef });
  const insertEmoji = useEmojiInsertion(text, onTextChange, textRef);
  const albumPicker = useAlbumPicker(props.album ?? [], props.onAlbumChange ?? (() => undefined));
  const pickImages = props.onAlbumChange && !busy ? albumPicker.add : undefined;
  const withImage = withAlbumImage(props);

  const handleSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!busy) onSubmit();
  };

  return (
    <form
      id={formId}
      className={['post-editor', className].filter(Boolean).join(' ')}
      onSubmit={handleSubmit}
      aria-busy={busy}
      noValidate
      {...(pickImages && dropTarget(pickImages))}
    >
      <div className="post-editor__body">
        {leading}
        <div className="post-editor__main">
          {warnings.open && (
            <ContentWarningField
              value={warnings.text}
              onChange={(text) => {
                onWarningsChange({ ...warnings, text });
              }}
              disabled={busy}
              focused={warnings.opened === true}
            />
          )}
          <label htmlFor={textId} className="visually-hidden">
            {textLabel}
          </label>
          <div className="mention-field">
            <textarea
              ref={textRef}
              id={textId}
              className="post-editor__text"
              placeholder={placeholder}
              value={text}
              readOnly={busy}
              rows={3}
              data-autofocus={autoFocus || undefined}
              {...mention.fieldProps}
              onChange={(event) => {
                mention.trackCaret(event);
                onTextChange(event.target.value);
              }}
              onKeyDown={(event) => {
                if (!mention.handleKeyDown(event)) submitOnModEnter(event);
              }}
            />
            <MentionListbox {...mention.listboxProps} />
          </div>
          <ImageFields {...withImage} albumNotice={albumPicker.notice} />
        </div>
      </div>
      <Toolbar {...withImage} emojiId={emojiId} onPickImages={pickImages} />
      {emojiOpen && (
        <EmojiPanel
          id={emojiId}
          onPick={insertEmoji}
          onClose={() => {
            onEmojiOpenChange(false);
          }}
        />
      )}
    </form>
  );
}
