import { SearchIcon } from '../../components/icons';
import { TextField } from '../../components/TextField';

/** Right column on wide screens. */
export function RightPanel() {
  return (
    <aside className="right-panel" aria-label="Search and suggestions">
      <div className="right-panel__inner">
        <div role="search" className="right-panel__search">
          <TextField
            label="Search users"
            hideLabel
            type="search"
            placeholder="Search..."
            autoComplete="off"
            startAdornment={<SearchIcon size={20} />}
            className="right-panel__search-input"
          />
        </div>
      </div>
    </aside>
  );
}
