import type { User } from '@perch/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Avatar } from '../../../shared/components/Avatar';
import { profilePath } from '../../../shared/lib/paths';

interface UserRowProps {
  user: User;
  /** Shown at the end of the row (e.g. a Follow button); clicks on it stay its own. */
  action?: ReactNode;
}

/** A member in a list: avatar, full name and @username; a click anywhere opens their profile. */
export function UserRow({ user, action }: UserRowProps) {
  return (
    <div className="user-row">
      <Avatar src={user.avatarURL} size="md" />
      <Link to={profilePath(user.username)} className="user-row__link">
        <span className="user-row__name">
          {user.firstName} {user.lastName}
        </span>
        <span className="user-row__username">@{user.username}</span>
      </Link>
      {action !== undefined && <div className="user-row__action">{action}</div>}
    </div>
  );
}

/** Placeholder of a row while members load. */
export function UserRowSkeleton({ action }: { action?: ReactNode }) {
  return (
    <div className="user-row user-row--skeleton">
      <span className="user-row__bone user-row__bone--avatar" />
      <span className="user-row__link">
        <span className="user-row__bone user-row__bone--name" />
        <span className="user-row__bone user-row__bone--username" />
      </span>
      {action !== undefined && <div className="user-row__action">{action}</div>}
    </div>
  );
}
