import { countCharacters, MEDIA_ALT_MAX } from '@perch/contract';
import { useId } from 'react';

interface AltTextFieldProps {
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  /** Names the field when the post has several images. */
  label?: string;
}

/**
 * The image's description, under its preview. Optional, but a gentle note asks for one while it
 * is empty: it is what a screen reader says instead of the picture.
 */
export function AltTextField({
  value,
  onChange,
  disabled,
  label = 'Image description',
}: AltTextFieldProps) {
  const id = useId();
  const hintId = useId();
  const length = countCharacters(value);
  const tooLong = length > MEDIA_ALT_MAX;
  return (
    <div className="alt-text-field">
      <label htmlFor={id} className="alt-text-field__label">
        {label}
      </label>
      <textarea
        id={id}
        className="alt-text-field__input"
        rows={2}
        value={value}
        readOnly={disabled}
        aria-describedby={hintId}
        aria-invalid={tooLong || undefined}
        placeholder="What is in the picture?"
        onChange={(event) => {
          onChange(event.target.value);
        }}
      />
      <p id={hintId} className="alt-text-field__hint">
        <span>
          {value.trim() === ''
            ? 'Add a description so people who cannot see the image know what it shows.'
            : 'Read aloud by screen readers and shown under ALT.'}
        </span>
        <span className={tooLong ? 'alt-text-field__count--over' : undefined}>
          {length.toLocaleString('en-US')}/{MEDIA_ALT_MAX.toLocaleString('en-US')}
        </span>
      </p>
    </div>
  );
}
