import { CONTENT_WARNING_MAX, countCharacters } from '@perch/contract';
import { useId } from 'react';
import type { PostWarnings } from '../../entities/post/posts.queries';

/** The editor's content warning (open or not, and its text) and the image's sensitive mark. */
export interface EditorWarnings {
  open: boolean;
  text: string;
  sensitive: boolean;
  /** Opened by the member just now: the field takes focus (not when a draft brings it back). */
  opened?: boolean;
}

export const NO_WARNINGS: EditorWarnings = { open: false, text: '', sensitive: false };

/** The editor's state of a post as it was written, or of a kept draft (both say it alike). */
export function editorWarningsOf(post: {
  contentWarning: string | null;
  sensitive: boolean;
}): EditorWarnings {
  return {
    open: post.contentWarning !== null,
    text: post.contentWarning ?? '',
    sensitive: post.sensitive,
  };
}

/** What the editor's state sends: a closed warning field sends none. */
export function warningsToSend(warnings: EditorWarnings): PostWarnings {
  return {
    contentWarning: warnings.open ? warnings.text.trim() : '',
    sensitive: warnings.sensitive,
  };
}

/** What a draft keeps of them: the warning's text, or null while its field is closed. */
export function draftWarnings(warnings: EditorWarnings) {
  return { contentWarning: warnings.open ? warnings.text : null, sensitive: warnings.sensitive };
}

interface WarningFieldProps {
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  focused: boolean;
}

/** The content warning's text, above the post's; focused when the member opens it. */
export function ContentWarningField({ value, onChange, disabled, focused }: WarningFieldProps) {
  const id = useId();
  const hintId = useId();
  const length = countCharacters(value.trim());
  const tooLong = length > CONTENT_WARNING_MAX;
  return (
    <div className="warning-field">
      <label htmlFor={id} className="warning-field__label">
        Content warning
      </label>
      <input
        id={id}
        className="warning-field__input"
        type="text"
        value={value}
        readOnly={disabled}
        autoFocus={focused}
        aria-describedby={hintId}
        aria-invalid={tooLong || undefined}
        placeholder="What should people know before reading?"
        onChange={(event) => {
          onChange(event.target.value);
        }}
      />
      <p id={hintId} className="warning-field__hint">
        <span>Readers see only this until they choose Show more.</span>
        <span className={tooLong ? 'alt-text-field__count--over' : undefined}>
          {length}/{CONTENT_WARNING_MAX}
        </span>
      </p>
    </div>
  );
}

interface SensitiveToggleProps {
  checked: boolean;
  /** Under a content warning the image is hidden anyway: the box shows checked and fixed. */
  implied: boolean;
  onChange: (checked: boolean) => void;
  disabled: boolean;
}

/** Marks the image sensitive: readers see it blurred until they press it. */
export function SensitiveToggle({ checked, implied, onChange, disabled }: SensitiveToggleProps) {
  const id = useId();
  return (
    <div className="sensitive-toggle">
      <input
        id={id}
        type="checkbox"
        checked={checked || implied}
        disabled={disabled || implied}
        onChange={(event) => {
          onChange(event.target.checked);
        }}
      />
      <label htmlFor={id}>
        Mark image as sensitive
        {implied && (
          <span className="sensitive-toggle__note"> (hidden by the content warning)</span>
        )}
      </label>
    </div>
  );
}
