import { NavLink } from 'react-router-dom';
import { Button } from '../../shared/components/Button';
import { PenIcon } from '../../shared/components/icons';
import { useRequiredSession } from '../../entities/session/SessionProvider';
import { UnreadBadge, unreadLabel } from '../notifications';
import { useUnreadCount } from '../../entities/notification/notifications.queries';
import { AccountMenu } from './AccountMenu';
import { primaryNavItems } from './navigation';

interface SidebarProps {
  onCreatePost: () => void;
}

/** Left column on wide screens: main navigation, new post, and the signed-in member. */
export function Sidebar({ onCreatePost }: SidebarProps) {
  const { user } = useRequiredSession();
  const unread = useUnreadCount();

  return (
    <aside className="sidebar" aria-label="Sidebar">
      <nav className="sidebar__nav" aria-label="Main">
        <ul className="sidebar__links">
          {primaryNavItems(user.username).map(({ label, to, icon: Icon, end, showsUnread }) => {
            const count = showsUnread ? unread : 0;
            return (
              <li key={label}>
                <NavLink
                  to={to}
                  end={end}
                  className="sidebar__link"
                  aria-label={count > 0 ? unreadLabel(label, count) : undefined}
                >
                  <span className="nav-icon">
                    <Icon size={22} />
                    <UnreadBadge count={count} />
                  </span>
                  <span>{label}</span>
                </NavLink>
              </li>
            );
          })}
        </ul>
        <Button size="lg" fullWidth className="sidebar__new-post" onClick={onCreatePost}>
          <PenIcon size={20} />
          Create a new Post
        </Button>
      </nav>
      <AccountMenu user={user} />
    </aside>
  );
}
