import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';
import './TextField.css';

export interface TextFieldProps extends Omit<ComponentPropsWithRef<'input'>, 'id'> {
  label: ReactNode;
  /** Help shown under the field and announced with it. */
  hint?: ReactNode;
  /** Error shown under the field; marks the field invalid. */
  error?: ReactNode;
  id?: string;
  /** Hides the label visually while keeping it for assistive technology. */
  hideLabel?: boolean;
  /** Rendered inside the field, before the text (e.g. an icon). */
  startAdornment?: ReactNode;
  containerClassName?: string;
}

export function TextField({
  label,
  hint,
  error,
  id,
  hideLabel = false,
  startAdornment,
  containerClassName,
  className,
  type = 'text',
  ...props
}: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [props['aria-describedby'], hintId, errorId].filter(Boolean).join(' ');

  return (
    <div className={['field', containerClassName].filter(Boolean).join(' ')}>
      <label htmlFor={inputId} className={hideLabel ? 'visually-hidden' : 'field__label'}>
        {label}
      </label>
      <div
        className={['field__control', startAdornment && 'field__control--adorned']
          .filter(Boolean)
          .join(' ')}
      >
        {startAdornment && <span className="field__adornment">{startAdornment}</span>}
        <input
          id={inputId}
          type={type}
          className={['field__input', className].filter(Boolean).join(' ')}
          aria-invalid={error ? true : undefined}
          {...props}
          aria-describedby={describedBy === '' ? undefined : describedBy}
        />
      </div>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
