import { useRef, type ChangeEvent, type ReactNode } from 'react';
import { IconButton } from '../../shared/components/IconButton';
import { EmojiIcon, ImageIcon } from '../../shared/components/postIcons';
import { EmojiPicker } from './EmojiPicker';
import type { EditorWarnings } from './Warnings';

export function isImageFile(file: File): boolean {
  return file.type.startsWith('image/');
}

/** How much of the image is uploaded, as a bar. */
export function UploadProgress({
  progress,
  label = 'Uploading image',
}: {
  progress: number;
  label?: string;
}) {
  return (
    <div
      className="post-editor__progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(progress * 100)}
    >
      <span className="post-editor__progress-bar" style={{ transform: `scaleX(${progress})` }} />
    </div>
  );
}

interface EditorToolbarProps {
  /** Takes the images picked, several at once. */
  onPickImages: (files: File[]) => void;
  busy: boolean;
  emojiOpen: boolean;
  emojiId: string;
  onEmojiOpenChange: (open: boolean) => void;
  warnings: EditorWarnings;
  onWarningsChange: (warnings: EditorWarnings) => void;
  /** Shown at the end of the toolbar (the submit button). */
  actions?: ReactNode;
  /** More tools after the content warning's (the composer's Poll). */
  tools?: ReactNode;
  /** The image button is off (a post has images or a poll, not both). */
  imageDisabled?: boolean;
}

/** The image, emoji and content warning buttons, then the editor's own actions. */
export function EditorToolbar({
  onPickImages,
  busy,
  emojiOpen,
  emojiId,
  onEmojiOpenChange,
  warnings,
  onWarningsChange,
  actions,
  tools,
  imageDisabled = false,
}: EditorToolbarProps) {
  const fileRef = useRef<HTMLInputElement>(null);
  const imageLabel = 'Add images';
  const handleFile = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    onPickImages(files);
  };
  return (
    <div className="post-editor__toolbar">
      <div className="post-editor__tools">
        <input
          ref={fileRef}
          type="file"
          accept="image/*"
          multiple
          hidden
          tabIndex={-1}
          aria-label={imageLabel}
          onChange={handleFile}
        />
        <IconButton
          aria-label={imageLabel}
          className="post-editor__tool"
          disabled={busy || imageDisabled}
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
        <IconButton
          aria-label="Content warning"
          aria-pressed={warnings.open}
          className="post-editor__tool post-editor__tool--text"
          disabled={busy}
          onClick={() => {
            onWarningsChange({ ...warnings, open: !warnings.open, opened: !warnings.open });
          }}
        >
          CW
        </IconButton>
        {tools}
      </div>
      {actions}
    </div>
  );
}

interface EmojiPanelProps {
  id: string;
  onPick: (emoji: string) => void;
  onClose: () => void;
}

/** The open emoji picker; Escape closes it without closing a dialog around it. */
export function EmojiPanel({ id, onPick, onClose }: EmojiPanelProps) {
  return (
    <div
      id={id}
      className="post-editor__emoji"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        onClose();
      }}
    >
      <EmojiPicker onPick={onPick} />
    </div>
  );
}
