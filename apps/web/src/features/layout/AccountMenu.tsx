import type { User } from '@perch/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Avatar } from '../../components/Avatar';
import { IconButton } from '../../components/IconButton';
import { LogoutIcon, MoreIcon } from '../../components/icons';
import { useLogout } from '../auth/auth.queries';
import { profilePath } from './navigation';

/** The signed-in member at the foot of the sidebar, with a toggled menu holding 'Log out'. */
export function AccountMenu({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const logout = useLogout();
  const fullName = `${user.firstName} ${user.lastName}`;

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (event.target instanceof Node && containerRef.current?.contains(event.target)) return;
      setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);

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
      {open && (
        <div id={menuId} className="account__menu">
          <button
            type="button"
            className="account__menu-item"
            onClick={() => {
              setOpen(false);
              logout();
            }}
          >
            <LogoutIcon size={18} />
            Log out
          </button>
        </div>
      )}
    </div>
  );
}
