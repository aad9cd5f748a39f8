import {
  useId,
  useLayoutEffect,
  useRef,
  type ChangeEvent,
  type ReactNode,
  type SubmitEvent,
} from 'react';
import { FilePreview } from '../../shared/components/FilePreview';
import { CloseIcon } from '../../shared/components/icons';
import { IconButton } from '../../shared/components/IconButton';
import { MentionListbox } from '../mentions';
import { useMentionAutocomplete } from '../mentions';
import { AltTextField } from './AltTextField';
import { EmojiPicker } from './EmojiPicker';
import { EmojiIcon, ImageIcon } from '../../shared/components/postIcons';
import './composer.css';

/** The image shown in the editor: a file picked just now, or the one the post already has. */
export type EditorImage = { kind: 'file'; file: File } | { kind: 'url'; url: string } | null;

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
}

export function isImageFile(file: File): boolean {
  return file.type.startsWith('image/');
}

/**
 * The text, image and emoji part of the new-post box and of the Edit Post dialog: a growing
 * text area that offers members while an @mention is typed, an image picker with an immediate
 * local preview (and upload progress), and the emoji picker, which inserts at the caret.
 */
export function PostEditor({
  formId,
  text,
  onTextChange,
  image,
  onPickImage,
  onRemoveImage,
  altText,
  onAltTextChange,
  progress,
  busy,
  emojiOpen,
  onEmojiOpenChange,
  onSubmit,
  textLabel,
  placeholder,
  autoFocus = false,
  leading,
  actions,
  className,
}: PostEditorProps) {
  const textId = useId();
  const emojiId = useId();
  const textRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const caretRef = useRef<number | null>(null);
  const mention = useMentionAutocomplete({ text, onTextChange, fieldRef: textRef });

  // After an emoji goes in, the caret follows it.
  useLayoutEffect(() => {
    const caret = caretRef.current;
    const area = textRef.current;
    if (caret === null || !area) return;
    caretRef.current = null;
    area.setSelectionRange(caret, caret);
  }, [text]);

  const insertEmoji = (emoji: string) => {
    const area = textRef.current;
    const start = area?.selectionStart ?? text.length;
    const end = area?.selectionEnd ?? text.length;
    caretRef.current = start + emoji.length;
    onTextChange(text.slice(0, start) + emoji + text.slice(end));
  };

  const handleFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file && isImageFile(file)) onPickImage(file);
  };

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
    >
      <div className="post-editor__body">
        {leading}
        <div className="post-editor__main">
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
                if (mention.handleKeyDown(event)) return;
                if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
                  event.preventDefault();
                  event.currentTarget.form?.requestSubmit();
                }
              }}
            />
            <MentionListbox {...mention.listboxProps} />
          </div>
          {image && (
            <div className="post-editor__preview">
              {image.kind === 'file' ? (
                <FilePreview
                  file={image.file}
                  alt="Selected image"
                  className="post-editor__preview-image"
                />
              ) : (
                <img src={image.url} alt="Current image" className="post-editor__preview-image" />
              )}
              {!busy && (
                <IconButton
                  aria-label="Remove image"
                  className="post-editor__remove-image"
                  onClick={onRemoveImage}
                >
                  <CloseIcon size={18} />
                </IconButton>
              )}
            </div>
          )}
          {image && <AltTextField value={altText} onChange={onAltTextChange} disabled={busy} />}
          {progress !== null && (
            <div
              className="post-editor__progress"
              role="progressbar"
              aria-label="Uploading image"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(progress * 100)}
            >
              <span
                className="post-editor__progress-bar"
                style={{ transform: `scaleX(${progress})` }}
              />
            </div>
          )}
        </div>
      </div>
      <div className="post-editor__toolbar">
        <div className="post-editor__tools">
          <input
            ref={fileRef}
            type="file"
            accept="image/*"
            hidden
            tabIndex={-1}
            aria-label={image ? 'Replace image' : 'Add image'}
            onChange={handleFile}
          />
          <IconButton
            aria-label={image ? 'Replace image' : 'Add image'}
            className="post-editor__tool"
            disabled={busy}
            onClick={() => fileRef.current?.click()}
          >
            <ImageIcon size={22} />
          </IconButton>
          <IconButton
            aria-label="Add emoji"
            aria-expanded={emojiOpen}
            aria-controls={emojiOpen ? emojiId : undefined}
            className="post-editor__tool"
            disabled={busy}
            onClick={() => {
              onEmojiOpenChange(!emojiOpen);
            }}
          >
            <EmojiIcon size={22} />
          </IconButton>
        </div>
        {actions}
      </div>
      {emojiOpen && (
        <div
          id={emojiId}
          className="post-editor__emoji"
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.stopPropagation();
            onEmojiOpenChange(false);
          }}
        >
          <EmojiPicker onPick={insertEmoji} />
        </div>
      )}
    </form>
  );
}
