import { NavLink } from 'react-router-dom';
import { LogoutIcon, NewPostIcon } from '../../components/icons';
import { useLogout } from '../auth/auth.queries';
import { useRequiredSession } from '../auth/SessionProvider';
import { UnreadBadge, unreadLabel } from '../notifications/UnreadBadge';
import { useUnreadCount } from '../notifications/notifications.queries';
import { primaryNavItems, type NavItem } from './navigation';

interface BottomBarProps {
  onCreatePost: () => void;
}

function BottomLink({ item, unread }: { item: NavItem; unread: number }) {
  const { icon: Icon } = item;
  const count = item.showsUnread ? unread : 0;
  return (
    <li>
      <NavLink
        to={item.to}
        end={item.end}
        className="icon-btn bottom-bar__item"
        aria-label={unreadLabel(item.shortLabel, count)}
      >
        <span className="nav-icon">
          <Icon size={24} />
          <UnreadBadge count={count} />
        </span>
      </NavLink>
    </li>
  );
}

/** Icon navigation fixed to the bottom of small screens. */
export function BottomBar({ onCreatePost }: BottomBarProps) {
  const { user } = useRequiredSession();
  const logout = useLogout();
  const unread = useUnreadCount();
  const items = primaryNavItems(user.username);
  // New post sits in the middle: four items on each side.
  const before = items.slice(0, 4); // home, explore, search, notifications
  const after = items.slice(4); // bookmarks, liked posts, profile (then log out)

  return (
    <nav className="bottom-bar" aria-label="Quick navigation">
      <ul className="bottom-bar__list">
        {before.map((item) => (
          <BottomLink key={item.to} item={item} unread={unread} />
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
          <BottomLink key={item.to} item={item} unread={unread} />
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
