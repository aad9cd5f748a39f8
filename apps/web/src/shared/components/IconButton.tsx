import type { ComponentPropsWithRef } from 'react';
import './Button.css';

export interface IconButtonProps extends ComponentPropsWithRef<'button'> {
  /** The accessible name; icon-only buttons have no other text. */
  'aria-label': string;
}

export function IconButton({ className, type = 'button', ...props }: IconButtonProps) {
  return (
    <button type={type} className={['icon-btn', className].filter(Boolean).join(' ')} {...props} />
  );
}
