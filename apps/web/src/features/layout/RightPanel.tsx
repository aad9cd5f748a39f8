import { useMatch } from 'react-router-dom';
import { TrendingTags } from '../tags';
import { UserSearch } from '../people';
import { WhoToFollow } from '../people';
import '../../entities/member/ui/users.css';
import { SEARCH_PATH } from '../../shared/lib/paths';

/** Right column on wide screens: member search, trending tags and who to follow. */
export function RightPanel() {
  // The search page shows trending tags itself.
  const onSearchPage = useMatch(SEARCH_PATH) !== null;
  return (
    <aside className="right-panel" aria-label="Search and suggestions">
      <div className="right-panel__inner">
        <UserSearch />
        {!onSearchPage && <TrendingTags />}
        <WhoToFollow />
      </div>
    </aside>
  );
}
