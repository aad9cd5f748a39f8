import { useCallback, useId, useRef, useState } from 'react';
import { NavLink, useMatch } from 'react-router-dom';
import { MoreIcon, NewPostIcon } from '../../shared/components/icons';
import { useRequiredSession } from '../../entities/session/SessionProvider';
import { UnreadBadge, unreadLabel } from '../notifications';
import { useUnreadCount } from '../../entities/notification/notifications.queries';
import { AccountMenuItems } from './AccountMenu';
import { SETTINGS_PATH } from '../../shared/lib/paths';
import { primaryNavItems, type NavItem } from './navigation';
import { useMenuDismiss } from '../../shared/hooks/useMenuDismiss';

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

/** The last item: a menu opening upwards with Settings and Log out. */
function BottomAccountMenu() {
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLLIElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  // Marked like an active link on the page it leads to.
  const onSettings = useMatch(SETTINGS_PATH) !== null;
  const close = useCallback(() => {
    setOpen(false);
  }, []);
  useMenuDismiss(open, close, containerRef, toggleRef);

  return (
    <li className="bottom-bar__account" ref={containerRef}>
      <button
        ref={toggleRef}
        type="button"
        className={`icon-btn bottom-bar__item${onSettings ? ' active' : ''}`}
        aria-label="Account menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => {
          setOpen((value) => !value);
        }}
      >
        <MoreIcon size={24} />
      </button>
      {open && (
        <AccountMenuItems id={menuId} className="account__menu bottom-bar__menu" onClose={close} />
      )}
    </li>
  );
}

/** Icon navigation fixed to the bottom of small screens. */
export function BottomBar({ onCreatePost }: BottomBarProps) {
  const { user } = useRequiredSession();
  const unread = useUnreadCount();
  const items = primaryNavItems(user.username);
  // New post sits in the middle: four items on each side.
  const before = items.slice(0, 4); // home, explore, search, notifications
  const after = items.slice(4); // bookmarks, liked posts, profile (then the account menu)

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
        <BottomAccountMenu />
      </ul>
    </nav>
  );
}
