import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Avatar } from '../../shared/components/Avatar';
import { Button, buttonClassName } from '../../shared/components/Button';
import { PenIcon } from '../../shared/components/icons';
import { useRequiredSession } from '../../entities/session/SessionProvider';
import { profilePath } from '../../shared/lib/paths';
import { EditProfileModal } from '../editProfile';
import { SettingsSection } from './SettingsSection';

/** Who the member is, with Edit Profile (the profile page's own dialog) and a link to the page. */
export function ProfileSection() {
  const { user } = useRequiredSession();
  const [editing, setEditing] = useState(false);

  return (
    <SettingsSection title="Profile" description="Your name, bio and avatar as others see them.">
      <div className="settings-profile">
        <Avatar src={user.avatarURL} size="lg" />
        <div className="settings-profile__names">
          <span className="settings-profile__name">
            {user.firstName} {user.lastName}
          </span>
          <span className="settings-profile__username">@{user.username}</span>
        </div>
      </div>
      <div className="settings-actions">
        <Button
          variant="secondary"
          onClick={() => {
            setEditing(true);
          }}
        >
          <PenIcon size={18} />
          Edit profile
        </Button>
        <Link to={profilePath(user.username)} className={buttonClassName({ variant: 'ghost' })}>
          View profile
        </Link>
      </div>
      {editing && (
        <EditProfileModal
          user={user}
          onClose={() => {
            setEditing(false);
          }}
        />
      )}
    </SettingsSection>
  );
}
