import { useRef, type ChangeEvent, type ReactNode } from 'react';
import { FilePreview } from '../../shared/components/FilePreview';
import { CloseIcon } from '../../shared/components/icons';
import { IconButton } from '../../shared/components/IconButton';
import { EmojiIcon, ImageIcon } from '../../shared/components/postIcons';
import { AltTextField } from './AltTextField';
import { EmojiPicker } from './EmojiPicker';
import type { EditorWarnings } from './Warnings';

/** The image shown in the editor: a file picked just now, or the one the post already has. */
export type EditorImage = { kind: 'file'; file: File } | { kind: 'url'; url: string } | null;

export function isImageFile(file: File): boolean {
  return file.type.startsWith('image/');
}

interface ImagePreviewProps {
  image: NonNullable<EditorImage>;
  altText: string;
  onAltTextChange: (altText: string) => void;
  onRemoveImage: () => void;
  busy: boolean;
}

/** The picked or current image with its Remove button, and its description under it. */
export function ImagePreview({
  image,
  altText,
  onAltTextChange,
  onRemoveImage,
  busy,
}: ImagePreviewProps) {
  return (
    <>
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
      <AltTextField value={altText} onChange={onAltTextChange} disabled={busy} />
    </>
  );
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
  hasImage: boolean;
  onPickImage: (file: File) => void;
  /** Set for an album: the picker takes several images at once. */
  onPickImages?: (files: File[]) => void;
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
  /** The image button is off (a post has an image or a poll, not both). */
  imageDisabled?: boolean;
}

/** The image, emoji and content warning buttons, then the editor's own actions. */
export function EditorToolbar({
  hasImage,
  onPickImage,
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
  const imageLabel = onPickImages ? 'Add images' : hasImage ? 'Replace image' : 'Add image';
  const handleFile = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    if (onPickImages) onPickImages(files);
    else if (files[0] && isImageFile(files[0])) onPickImage(files[0]);
  };
  return (
    <div className="post-editor__toolbar">
      <div className="post-editor__tools">
        <input
          ref={fileRef}
          type="file"
          accept="image/*"
          multiple={onPickImages !== undefined}
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
