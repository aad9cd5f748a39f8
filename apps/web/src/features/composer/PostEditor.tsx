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
import { EditorToolbar, EmojiPanel } from './EditorParts';
import { ContentWarningField, SensitiveToggle, type EditorWarnings } from './Warnings';
import { editorPoll, type PollDraft } from './PollFields';
import { AlbumFields, useAlbumPicker, type AlbumItem } from './AlbumFields';
import './composer.css';

export { isImageFile } from './EditorParts';

export interface PostEditorProps {
  /** Id of the form element, so that buttons outside it (a modal footer) can submit it. */
  formId?: string;
  text: string;
  onTextChange: (text: string) => void;
  /** The post's images in order, each with its description. */
  album: AlbumItem[];
  onAlbumChange: (album: AlbumItem[]) => void;
  /** Share uploaded so far of each album image being uploaded, by its id; null while none is. */
  albumProgress: Record<string, number> | null;
  /** The post takes no images (an edited post with a poll, which stays as it was posted). */
  noImages?: boolean;
  /** The content warning and the images' sensitive mark. */
  warnings: EditorWarnings;
  onWarningsChange: (warnings: EditorWarnings) => void;
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
}

/** The editor's poll parts; the Poll button is off while the post has images. */
const pollOf = (props: PostEditorProps) =>
  editorPoll({ ...props, image: props.album.length > 0 ? props.album : null });

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

/**
 * Under the text: the images, each with its description and upload progress, their sensitive
 * mark, and the new post's poll.
 */
function ImageFields(props: PostEditorProps & { albumNotice: string | null }) {
  const { album, onAlbumChange, warnings, onWarningsChange, busy } = props;
  return (
    <>
      <AlbumFields
        album={album}
        onChange={onAlbumChange}
        progress={props.albumProgress}
        busy={busy}
        notice={props.albumNotice}
      />
      {album.length > 0 && (
        <SensitiveToggle
          checked={warnings.sensitive}
          implied={warnings.open}
          onChange={(sensitive) => {
            onWarningsChange({ ...warnings, sensitive });
          }}
          disabled={busy}
        />
      )}
      {pollOf(props).fields}
    </>
  );
}

/** The toolbar under the editor, with the Poll button when the editor offers a poll. */
function Toolbar(props: PostEditorProps & { emojiId: string; onPickImages: (f: File[]) => void }) {
  const poll = pollOf(props);
  return (
    <EditorToolbar
      onPickImages={props.onPickImages}
      busy={props.busy}
      emojiOpen={props.emojiOpen}
      emojiId={props.emojiId}
      onEmojiOpenChange={props.onEmojiOpenChange}
      warnings={props.warnings}
      onWarningsChange={props.onWarningsChange}
      actions={props.actions}
      imageDisabled={poll.imageDisabled || props.noImages === true}
      tools={poll.tool}
    />
  );
}

/**
 * The text, images and emoji part of the new-post box and of the Edit Post dialog: a growing
 * text area that offers members while an @mention is typed, the album of up to ten images
 * (picked or dropped, each previewed at once with its description and upload progress), the
 * emoji picker, which inserts at the caret, and the content warning and sensitive mark.
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
  const albumPicker = useAlbumPicker(props.album, props.onAlbumChange);
  const dropsImages = !busy && props.noImages !== true;

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
      {...(dropsImages && dropTarget(albumPicker.add))}
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
          <ImageFields {...props} albumNotice={albumPicker.notice} />
        </div>
      </div>
      <Toolbar {...props} emojiId={emojiId} onPickImages={albumPicker.add} />
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
