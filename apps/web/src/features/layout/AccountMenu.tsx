import type { User } from '@perch/contract';
import { useCallback, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Avatar } from '../../shared/components/Avatar';
import { IconButton } from '../../shared/components/IconButton';
import { LogoutIcon, MoreIcon, SettingsIcon } from '../../shared/components/icons';
import { useLogout } from '../../entities/session/auth.queries';
import { profilePath, SETTINGS_PATH } from '../../shared/lib/paths';
import { useMenuDismiss } from '../../shared/hooks/useMenuDismiss';

interface AccountMenuItemsProps {
  id: string;
  className: string;
  onClose: () => void;
}

/** The items of an open account menu: Settings, then Log out. */
export function AccountMenuItems({ id, className, onClose }: AccountMenuItemsProps) {
  const logout = useLogout();
  return (
    <div id={id} className={className}>
      <Link
        to={SETTINGS_PATH}
        className="account__menu-item account__menu-item--plain"
        onClick={onClose}
      >
        <SettingsIcon size={18} />
        Settings
      </Link>
      <button
        type="button"
        className="account__menu-item"
        onClick={() => {
          onClose();
          logout();
        }}
      >
        <LogoutIcon size={18} />
        Log out
      </button>
    </div>
  );
}

/** The signed-in member at the foot of the sidebar, with a toggled menu: Settings, Log out. */
export function AccountMenu({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const close = useCallback(() => {
    setOpen(false);
  }, []);
  useMenuDismiss(open, close, containerRef, toggleRef);
  const fullName = `${user.firstName} ${user.lastName}`;

  return (
    <div className="account" ref={containerRef}>
      <Link to={profilePath(user.username)} className="account__profile">
        <Avatar src={user.avatarURL} size="md" />
        <span className="account__names">
          <span className="account__name">{fullName}</span>
          <span className="account__username">@{user.username}</span>
        </span>
      </Link>
      <IconButton
        ref={toggleRef}
        aria-label="Account menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => {
          setOpen((value) => !value);
        }}
      >
        <MoreIcon size={20} />
      </IconButton>
      {open && <AccountMenuItems id={menuId} className="account__menu" onClose={close} />}
    </div>
  );
}
