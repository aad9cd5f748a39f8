import type { User } from '@perch/contract';
import {
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
  type SyntheticEvent,
} from 'react';
import { useDebouncedValue } from '../../shared/hooks/useDebouncedValue';
import { insertMention, mentionAtCaret } from './mentionAtCaret';
import { useMentionSuggestions } from './mentions.queries';
import type { MentionListboxProps } from './MentionListbox';

/** Pause in typing before members are looked up. */
export const MENTION_DEBOUNCE_MS = 200;

type Field = HTMLTextAreaElement | HTMLInputElement;

interface Options {
  text: string;
  onTextChange: (text: string) => void;
  fieldRef: RefObject<Field | null>;
}

/** Whether the answer for `shown` still fits what is typed now (the same name, longer or shorter). */
function related(shown: string, typed: string): boolean {
  const a = shown.toLowerCase();
  const b = typed.toLowerCase();
  return a.startsWith(b) || b.startsWith(a);
}

/**
 * Member suggestions for the @mention being typed in a text field, as a WAI-ARIA combobox
 * list: the field keeps its textbox role (a textarea takes no aria-expanded) and gains
 * aria-autocomplete, aria-controls while the list shows, and aria-activedescendant. ArrowDown/ArrowUp move, Enter or Tab inserts
 * `@username `, Escape closes (until the name changes); while the list is open Enter never
 * reaches the form.
 *
 * The caller spreads `fieldProps` on the field, calls `trackCaret` from its change handler and
 * `handleKeyDown` first in its key handler (doing nothing else when it answers true), and
 * renders `<MentionListbox {...listboxProps} />` beside the field.
 */
export function useMentionAutocomplete({ text, onTextChange, fieldRef }: Options) {
  const listboxId = useId();
  // Null while the field has no focus or a range is selected: nothing is offered then.
  const [caret, setCaret] = useState<number | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [activeId, setActiveId] = useState<string | null>(null);
  const pendingCaret = useRef<number | null>(null);

  const draft = caret === null ? null : mentionAtCaret(text, caret);
  const draftKey = draft === null ? null : `${String(draft.start)}:${draft.query}`;
  const wanted = draft !== null && draftKey !== dismissed ? draft.query : '';
  const debounced = useDebouncedValue(wanted, MENTION_DEBOUNCE_MS);
  const suggestions = useMentionSuggestions(debounced);
  const users: User[] =
    wanted !== '' && debounced !== '' && related(debounced, wanted)
      ? (suggestions.data?.users ?? [])
      : [];
  const open = users.length > 0;
  const active = users.find((user) => user._id === activeId);
  const optionId = (user: User) => `${listboxId}-${user._id}`;

  // After an insertion the caret follows the inserted name.
  useLayoutEffect(() => {
    const next = pendingCaret.current;
    const field = fieldRef.current;
    if (next === null || !field) return;
    pendingCaret.current = null;
    field.setSelectionRange(next, next);
  }, [text, fieldRef]);

  const choose = (user: User) => {
    if (draft === null) return;
    const inserted = insertMention(text, draft, user.username);
    pendingCaret.current = inserted.caret;
    setCaret(inserted.caret);
    setActiveId(null);
    onTextChange(inserted.text);
  };

  const close = () => {
    setDismissed(draftKey);
    setActiveId(null);
  };

  const move = (step: 1 | -1) => {
    const index = active === undefined ? -1 : users.indexOf(active);
    const from = index === -1 ? (step === 1 ? -1 : users.length) : index;
    setActiveId(users[(from + step + users.length) % users.length]?._id ?? null);
  };

  /** Handles a key while the list is open; true when the key was used. */
  const handleKeyDown = (event: KeyboardEvent<Field>): boolean => {
    if (!open || event.nativeEvent.isComposing) return false;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        event.preventDefault();
        move(event.key === 'ArrowDown' ? 1 : -1);
        return true;
      case 'Enter':
        // Never a new line or a submitted form while the list is open.
        event.preventDefault();
        if (active) choose(active);
        else close();
        return true;
      case 'Tab':
        if (!active) {
          close();
          return false;
        }
        event.preventDefault();
        choose(active);
        return true;
      case 'Escape':
        // Only the list closes, not the dialog or edit around the field.
        event.preventDefault();
        event.stopPropagation();
        close();
        return true;
      default:
        return false;
    }
  };

  const trackCaret = (event: SyntheticEvent<Field>) => {
    const { selectionStart, selectionEnd } = event.currentTarget;
    setCaret(selectionStart !== null && selectionStart === selectionEnd ? selectionStart : null);
  };

  const fieldProps = {
    'aria-autocomplete': 'list' as const,
    'aria-controls': open ? listboxId : undefined,
    'aria-activedescendant': active ? optionId(active) : undefined,
    onSelect: trackCaret,
    onBlur: () => {
      setCaret(null);
      setActiveId(null);
    },
  };

  const listboxProps: MentionListboxProps = {
    id: listboxId,
    users,
    activeId: active?._id ?? null,
    optionId,
    onChoose: choose,
    onActivate: (user) => {
      setActiveId(user._id);
    },
  };

  return { fieldProps, listboxProps, handleKeyDown, trackCaret };
}
