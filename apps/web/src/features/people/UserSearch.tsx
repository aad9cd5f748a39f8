import type { User } from '@perch/contract';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useNavigate } from 'react-router-dom';
import { Avatar } from '../../shared/components/Avatar';
import { SearchIcon } from '../../shared/components/icons';
import { TextField } from '../../shared/components/TextField';
import { profilePath, searchPath } from '../../shared/lib/paths';
import { useDebouncedValue } from '../../shared/hooks/useDebouncedValue';
import { SEARCH_TEXT_MAX } from '../../entities/member/users.api';
import { usersMessages } from '../../entities/member/messages';
import { useUserSearchQuery } from '../../entities/member/users.queries';

/** Pause in typing before the server is asked. */
export const SEARCH_DEBOUNCE_MS = 200;

/** Closes the dropdown on a press outside the search box while it is open. */
function useCloseOnPointerOutside(
  expanded: boolean,
  containerRef: RefObject<HTMLDivElement | null>,
  setOpen: (open: boolean) => void,
) {
  useEffect(() => {
    if (!expanded) return;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && containerRef.current?.contains(event.target)) return;
      setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [expanded, containerRef, setOpen]);
}

interface SearchPopupProps {
  /** The list's id while it shows matches, else null (a message shows instead). */
  listboxId: string | null;
  users: User[];
  activeIndex: number;
  optionId: (user: User) => string;
  message: string | null;
  onActivate: (userId: string) => void;
  onChoose: (user: User) => void;
}

/** The dropdown: the matching members, or why there are none (or that they are on their way). */
function SearchPopup({
  listboxId,
  users,
  activeIndex,
  optionId,
  message,
  onActivate,
  onChoose,
}: SearchPopupProps) {
  return (
    <div className="user-search__popup">
      {listboxId !== null ? (
        <ul id={listboxId} role="listbox" aria-label="Matching users" className="user-search__list">
          {users.map((user, index) => (
            <li
              key={user._id}
              id={optionId(user)}
              role="option"
              aria-selected={index === activeIndex}
              className="user-search__option"
              // Keeps focus in the box so the click lands on the option.
              onMouseDown={(event) => {
                event.preventDefault();
              }}
              onMouseMove={() => {
                if (index !== activeIndex) onActivate(user._id);
              }}
              onClick={() => {
                onChoose(user);
              }}
            >
              <Avatar src={user.avatarURL} size="sm" />
              <span className="user-search__names">
                <span className="user-search__name">
                  {user.firstName} {user.lastName}
                </span>
                <span className="user-search__username">@{user.username}</span>
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="user-search__message" role="status">
          {message ?? <span className="user-search__searching">Searching…</span>}
        </p>
      )}
    </div>
  );
}

interface SearchKeys {
  text: string;
  users: User[];
  activeIndex: number;
  expanded: boolean;
  showList: boolean;
  setOpen: (open: boolean) => void;
  setActiveId: (id: string | null) => void;
  setQuery: (query: string) => void;
  choose: (user: User) => void;
  leave: (path: string) => void;
}

/** The search box's keys: arrows move through the matches, Enter opens, Escape and Tab close. */
function useSearchKeys({
  text,
  users,
  activeIndex,
  expanded,
  showList,
  setOpen,
  setActiveId,
  setQuery,
  choose,
  leave,
}: SearchKeys) {
  const move = (step: 1 | -1) => {
    if (users.length === 0) return;
    const from = activeIndex === -1 ? (step === 1 ? -1 : users.length) : activeIndex;
    const next = users[(from + step + users.length) % users.length];
    setActiveId(next?._id ?? null);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        event.preventDefault();
        if (!expanded) {
          setOpen(true);
          return;
        }
        move(event.key === 'ArrowDown' ? 1 : -1);
        return;
      case 'Enter': {
        if (event.nativeEvent.isComposing) return;
        const active = showList ? users[activeIndex] : undefined;
        if (active !== undefined) {
          event.preventDefault();
          choose(active);
        } else if (text !== '') {
          // No match picked: search posts, members and tags for the text.
          event.preventDefault();
          leave(searchPath(text));
        }
        return;
      }
      case 'Escape':
        // Also keeps the browser from clearing a search field on Escape.
        event.preventDefault();
        if (expanded) {
          setOpen(false);
          setActiveId(null);
        } else {
          setQuery('');
        }
        return;
      case 'Tab':
        setOpen(false);
        return;
      default:
        return;
    }
  };
  return handleKeyDown;
}

/**
 * Search box with a dropdown of matching members (a combobox): shown only while the box holds
 * text; arrow keys move through the matches, Enter opens one (or, with none picked, the search
 * page for the text), Escape or a click elsewhere closes the dropdown.
 */
export function UserSearch() {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [activeId, setActiveId] = useState<string | null>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const listboxId = useId();
  const navigate = useNavigate();

  const text = query.trim();
  const debounced = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const search = useUserSearchQuery(debounced);
  const users: User[] = debounced === '' ? [] : (search.data?.users ?? []);
  const answered = debounced !== '' && search.data !== undefined;
  const expanded = open && text !== '';
  const showList = expanded && users.length > 0;
  const activeIndex = users.findIndex((user) => user._id === activeId);
  const optionId = (user: User) => `${listboxId}-${user._id}`;

  useCloseOnPointerOutside(expanded, containerRef, setOpen);

  const leave = (path: string) => {
    setQuery('');
    setOpen(false);
    setActiveId(null);
    void navigate(path);
  };
  const choose = (user: User) => {
    leave(profilePath(user.username));
  };

  const handleKeyDown = useSearchKeys({
    text,
    users,
    activeIndex,
    expanded,
    showList,
    setOpen,
    setActiveId,
    setQuery,
    choose,
    leave,
  });

  // 'User not found!' only once the server answered for the text now in the box.
  const current = debounced === text && !search.isPlaceholderData;
  const message =
    current && search.isError
      ? search.error.message
      : current && answered
        ? usersMessages.searchEmpty
        : null;

  return (
    <div role="search" className="user-search" ref={containerRef}>
      <TextField
        label="Search users"
        hideLabel
        type="search"
        placeholder="Search..."
        autoComplete="off"
        spellCheck={false}
        maxLength={SEARCH_TEXT_MAX}
        startAdornment={<SearchIcon size={20} />}
        className="user-search__input"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={showList ? listboxId : undefined}
        aria-activedescendant={
          showList && activeIndex !== -1 && users[activeIndex]
            ? optionId(users[activeIndex])
            : undefined
        }
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setOpen(true);
          setActiveId(null);
        }}
        onFocus={() => {
          setOpen(true);
        }}
        onKeyDown={handleKeyDown}
      />
      {expanded && (
        <SearchPopup
          listboxId={showList ? listboxId : null}
          users={users}
          activeIndex={activeIndex}
          optionId={optionId}
          message={message}
          onActivate={setActiveId}
          onChoose={choose}
        />
      )}
    </div>
  );
}
