import { UserSearch } from '../users/UserSearch';
import { WhoToFollow } from '../users/WhoToFollow';
import '../users/users.css';

/** Right column on wide screens: member search and who to follow. */
export function RightPanel() {
  return (
    <aside className="right-panel" aria-label="Search and suggestions">
      <div className="right-panel__inner">
        <UserSearch />
        <WhoToFollow />
      </div>
    </aside>
  );
}
