import { NavLink } from 'react-router-dom';
import { Button } from '../../components/Button';
import { PenIcon } from '../../components/icons';
import { useRequiredSession } from '../auth/SessionProvider';
import { AccountMenu } from './AccountMenu';
import { primaryNavItems } from './navigation';

interface SidebarProps {
  onCreatePost: () => void;
}

/** Left column on wide screens: main navigation, new post, and the signed-in member. */
export function Sidebar({ onCreatePost }: SidebarProps) {
  const { user } = useRequiredSession();

  return (
    <aside className="sidebar" aria-label="Sidebar">
      <nav className="sidebar__nav" aria-label="Main">
        <ul className="sidebar__links">
          {primaryNavItems(user.username).map(({ label, to, icon: Icon, end }) => (
            <li key={label}>
              <NavLink to={to} end={end} className="sidebar__link">
                <Icon size={22} />
                <span>{label}</span>
              </NavLink>
            </li>
          ))}
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
