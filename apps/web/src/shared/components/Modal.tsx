import { useEffect, useEffectEvent, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { CloseIcon } from './icons';
import { IconButton } from './IconButton';
import './Modal.css';

export interface ModalProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children?: ReactNode;
  /** Actions row under the body. */
  footer?: ReactNode;
  /** Accessible name of the close button. */
  closeLabel?: string;
  size?: 'sm' | 'md' | 'lg';
}

const FOCUSABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  '[contenteditable="true"]',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/**
 * Whether the element is a field whose suggestion list is open (aria-autocomplete, with
 * aria-expanded on a combobox, or aria-controls on a text area, which takes no aria-expanded):
 * Escape then closes that list, not the dialog.
 */
function hasOpenSuggestions(element: Element | null): boolean {
  if (!element?.hasAttribute('aria-autocomplete')) return false;
  const expanded = element.getAttribute('aria-expanded');
  return expanded === null ? element.hasAttribute('aria-controls') : expanded === 'true';
}

function focusableWithin(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => !element.hasAttribute('inert') && element.getAttribute('aria-hidden') !== 'true',
  );
}

/**
 * A dialog over the page. While open it keeps keyboard focus inside, makes the rest of the
 * app inert, closes on Escape or a click on the backdrop, and gives focus back to the element
 * that opened it.
 */
export function Modal({
  open,
  onClose,
  title,
  children,
  footer,
  closeLabel = 'Close',
  size = 'md',
}: ModalProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const close = useEffectEvent(() => {
    onClose();
  });

  useEffect(() => {
    if (!open) return;
    const dialog = dialogRef.current;
    if (!dialog) return;

    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const appRoot = document.getElementById('root');
    const rootWasInert = appRoot?.inert ?? false;
    if (appRoot && !appRoot.contains(dialog)) appRoot.inert = true;
    document.body.classList.add('has-modal');

    const initial =
      dialog.querySelector<HTMLElement>('[data-autofocus]') ?? focusableWithin(dialog)[0] ?? dialog;
    initial.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        if (hasOpenSuggestions(document.activeElement)) return;
        event.preventDefault();
        event.stopPropagation();
        close();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = focusableWithin(dialog);
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) {
        event.preventDefault();
        dialog.focus();
        return;
      }
      const active = document.activeElement;
      if (event.shiftKey && (active === first || !dialog.contains(active))) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown, true);

    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      document.body.classList.remove('has-modal');
      if (appRoot) appRoot.inert = rootWasInert;
      if (opener?.isConnected) opener.focus();
    };
  }, [open]);

  if (!open) return null;

  return createPortal(
    <div
      className="modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={`modal modal--${size}`}
      >
        <header className="modal__header">
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          <IconButton aria-label={closeLabel} onClick={onClose}>
            <CloseIcon size={20} />
          </IconButton>
        </header>
        {children !== undefined && <div className="modal__body">{children}</div>}
        {footer !== undefined && <footer className="modal__footer">{footer}</footer>}
      </div>
    </div>,
    document.body,
  );
}
