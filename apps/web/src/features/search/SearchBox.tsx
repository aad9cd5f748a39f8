import { useId, useState } from 'react';
import { SearchIcon } from '../../shared/components/icons';
import { TextField } from '../../shared/components/TextField';

export const SEARCH_BOX_LABEL = 'Search';
export const SEARCH_BOX_PLACEHOLDER = 'Search posts, members and tags';

interface SearchBoxProps {
  /** The text the box starts with (the search in the address). */
  initial: string;
  /** Why the server could not run the search, shown under the box. */
  problem: string | null;
  onSearch: (q: string) => void;
}

/**
 * The search page's box: Enter searches. The server's explanation of a search it cannot run is
 * announced under the box and tied to it (aria-describedby).
 */
export function SearchBox({ initial, problem, onSearch }: SearchBoxProps) {
  const [text, setText] = useState(initial);
  const problemId = useId();

  return (
    <form
      role="search"
      aria-label="Posts, members and tags"
      className="search-box"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text.trim());
      }}
    >
      <TextField
        label={SEARCH_BOX_LABEL}
        hideLabel
        type="search"
        placeholder={SEARCH_BOX_PLACEHOLDER}
        autoComplete="off"
        enterKeyHint="search"
        spellCheck={false}
        startAdornment={<SearchIcon size={20} />}
        className="search-box__input"
        value={text}
        aria-invalid={problem === null ? undefined : true}
        aria-describedby={problem === null ? undefined : problemId}
        onChange={(event) => {
          setText(event.target.value);
        }}
      />
      {problem !== null && (
        <p id={problemId} className="search-box__problem" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
