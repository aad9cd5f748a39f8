import { useCallback, useId, useRef, useState } from 'react';
import { useMenuDismiss } from '../../shared/hooks/useMenuDismiss';
import { formatFullDate, formatRelativeTime } from '../../shared/lib/relativeTime';
import type { Draft } from './draftStore';
import './drafts.css';

const PREVIEW_LENGTH = 60;

/** A draft's first words, or what it holds when it has none. */
export function draftTitle(draft: Draft): string {
  const text = draft.text.trim().replace(/\s+/g, ' ');
  if (text === '') return draft.image || draft.media?.length ? 'Image' : 'Empty draft';
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH)}…` : text;
}

interface DraftsMenuProps {
  drafts: readonly Draft[];
  currentId: string | null;
  onOpen: (draft: Draft | null) => void;
  onDiscard: (draft: Draft) => void;
}

/**
 * The new-post box's drafts: a button that shows how many are kept and opens the list (a
 * disclosure: Tab moves through it, Escape closes it), where a draft is opened or deleted, or a
 * new one started while the current one stays kept.
 */
export function DraftsMenu({ drafts, currentId, onOpen, onDiscard }: DraftsMenuProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const containerRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => {
    setOpen(false);
  }, []);
  useMenuDismiss(open, close, containerRef, toggleRef);
  if (drafts.length === 0) return null;

  const choose = (draft: Draft | null) => {
    setOpen(false);
    onOpen(draft);
    toggleRef.current?.focus();
  };

  return (
    <div className="drafts-menu" ref={containerRef}>
      <button
        ref={toggleRef}
        type="button"
        className="drafts-menu__toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          setOpen((was) => !was);
        }}
      >
        Drafts ({drafts.length})
      </button>
      {open && (
        <div id={panelId} className="drafts-menu__panel" role="group" aria-label="Drafts">
          <ul className="drafts-menu__list">
            {drafts.map((draft) => {
              const title = draftTitle(draft);
              const current = draft.id === currentId;
              return (
                <li key={draft.id} className="drafts-menu__item">
                  <button
                    type="button"
                    className="drafts-menu__open"
                    aria-current={current || undefined}
                    onClick={() => {
                      choose(draft);
                    }}
                  >
                    <span className="drafts-menu__title">{title}</span>
                    <time
                      className="drafts-menu__time"
                      dateTime={new Date(draft.updatedAt).toISOString()}
                      title={formatFullDate(new Date(draft.updatedAt))}
                    >
                      {current ? 'Editing now' : formatRelativeTime(new Date(draft.updatedAt))}
                    </time>
                  </button>
                  <button
                    type="button"
                    className="drafts-menu__delete"
                    aria-label={`Delete draft: ${title}`}
                    onClick={() => {
                      onDiscard(draft);
                    }}
                  >
                    Delete
                  </button>
                </li>
              );
            })}
          </ul>
          <button
            type="button"
            className="drafts-menu__new"
            onClick={() => {
              choose(null);
            }}
          >
            New draft
          </button>
        </div>
      )}
    </div>
  );
}
