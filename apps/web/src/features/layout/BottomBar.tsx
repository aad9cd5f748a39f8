import { NavLink } from 'react-router-dom';
import { LogoutIcon, NewPostIcon } from '../../components/icons';
import { useLogout } from '../auth/auth.queries';
import { useRequiredSession } from '../auth/SessionProvider';
import { primaryNavItems, type NavItem } from './navigation';

interface BottomBarProps {
  onCreatePost: () => void;
}

function BottomLink({ item }: { item: NavItem }) {
  const { icon: Icon } = item;
  return (
    <li>
      <NavLink
        to={item.to}
        end={item.end}
        className="icon-btn bottom-bar__item"
        aria-label={item.shortLabel}
      >
        <Icon size={24} />
      </NavLink>
    </li>
  );
}

/** Icon navigation fixed to the bottom of small screens. */
export function BottomBar({ onCreatePost }: BottomBarProps) {
  const { user } = useRequiredSession();
  const logout = useLogout();
  const items = primaryNavItems(user.username);
  const before = items.slice(0, 3); // home, explore, bookmarks
  const after = items.slice(3); // liked posts, profile

  return (
    <nav className="bottom-bar" aria-label="Quick navigation">
      <ul className="bottom-bar__list">
        {before.map((item) => (
          <BottomLink key={item.to} item={item} />
        ))}
        <li>
          <button
            type="button"
            className="icon-btn bottom-bar__item bottom-bar__item--accent"
            aria-label="New post"
            onClick={onCreatePost}
          >
            <NewPostIcon size={24} />
          </button>
        </li>
        {after.map((item) => (
          <BottomLink key={item.to} item={item} />
        ))}
        <li>
          <button
            type="button"
            className="icon-btn bottom-bar__item"
            aria-label="Log out"
            onClick={logout}
          >
            <LogoutIcon size={24} />
          </button>
        </li>
      </ul>
    </nav>
  );
}
