import type { User } from '@perch/contract';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Avatar } from '../../shared/components/Avatar';
import { Button, buttonClassName } from '../../shared/components/Button';
import { PenIcon } from '../../shared/components/icons';
import { isApiError } from '../../shared/lib/api';
import { copyLink } from '../../shared/lib/copyLink';
import { publicProfilePath, usernameOfHandle } from '../../shared/lib/paths';
import { IconButton } from '../../shared/components/IconButton';
import { LinkIcon } from '../../shared/components/postIcons';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { useRequiredSession } from '../../entities/session/SessionProvider';
import { PostFeed } from '../posts';
import { BlockedNotice } from './BlockedNotice';
import { PinnedPosts } from './PinnedPosts';
import { ProfileSafetyMenu } from './ProfileSafetyMenu';
import { FollowButton } from '../../entities/member/ui/FollowButton';
import { useProfileQuery } from '../../entities/member/users.queries';
import { EditProfileModal } from '../editProfile';
import './profile.css';

const countFormat = new Intl.NumberFormat('en-US');

function ProfileStat({ label, value }: { label: string; value: number }) {
  return (
    <div className="profile-stat">
      <dt className="profile-stat__label">{label}</dt>
      <dd className="profile-stat__value">{countFormat.format(value)}</dd>
    </div>
  );
}

function ProfileCard({ user, own }: { user: User; own: boolean }) {
  const [editing, setEditing] = useState(false);
  const fullName = `${user.firstName} ${user.lastName}`;

  return (
    <article className="profile-card" aria-label="Profile">
      <div className="profile-card__banner" aria-hidden="true" />
      <div className="profile-card__top">
        <Avatar src={user.avatarURL} size="xl" className="profile-card__avatar" />
        <div className="profile-card__action">
          <IconButton
            aria-label="Copy link to profile"
            className="profile-copy-link"
            onClick={() => {
              void copyLink(publicProfilePath(user.username));
            }}
          >
            <LinkIcon size={20} />
          </IconButton>
          {own ? (
            <Button
              variant="secondary"
              onClick={() => {
                setEditing(true);
              }}
            >
              <PenIcon size={18} />
              Edit
            </Button>
          ) : (
            <>
              {user.viewerBlocks !== true && <FollowButton user={user} size="md" />}
              <ProfileSafetyMenu user={user} />
            </>
          )}
        </div>
      </div>
      <div className="profile-card__body">
        <h1 className="profile-card__name">{fullName}</h1>
        <p className="profile-card__username">
          <span>@{user.username}</span>
          {user.viewerMutes === true && <span className="muted-note">Muted</span>}
        </p>
        {user.bio.trim() !== '' && <p className="profile-card__bio">{user.bio}</p>}
        <dl className="profile-card__stats">
          <ProfileStat label="Posts" value={user.postsCount} />
          <ProfileStat label="Followers" value={user.followersCount} />
          <ProfileStat label="Following" value={user.followingCount} />
        </dl>
      </div>
      {editing && (
        <EditProfileModal
          user={user}
          onClose={() => {
            setEditing(false);
          }}
        />
      )}
    </article>
  );
}

function ProfileSkeleton() {
  return (
    <div className="profile-card profile-card--loading" aria-busy="true">
      <span className="visually-hidden" role="status">
        Loading profile
      </span>
      <div className="profile-card__banner" aria-hidden="true" />
      <div className="profile-card__top" aria-hidden="true">
        <span className="profile-bone profile-bone--avatar" />
      </div>
      <div className="profile-card__body" aria-hidden="true">
        <span className="profile-bone profile-bone--name" />
        <span className="profile-bone profile-bone--username" />
        <span className="profile-bone profile-bone--bio" />
      </div>
    </div>
  );
}

function ProfileProblem({
  title,
  text,
  action,
}: {
  title: string;
  text: string;
  action: ReactNode;
}) {
  return (
    <div className="profile-problem">
      <h1 className="profile-problem__title">{title}</h1>
      <p className="profile-problem__text">{text}</p>
      {action}
    </div>
  );
}

/**
 * A member's profile: avatar, names, bio and counts; Edit on the viewer's own profile, Follow
 * or Unfollow and the More menu (mute, block) on others'; then their pinned posts and all their
 * posts, or instead a notice with Unblock when the viewer blocked them.
 */
export function ProfilePage() {
  // Reached as /profile/:username or as the public address /@username.
  const { username: named, handle } = useParams();
  const username = named ?? usernameOfHandle(handle) ?? '';
  const { user: viewer } = useRequiredSession();
  const profile = useProfileQuery(username);
  const postsHeadingId = useId();
  const user = profile.data;

  useDocumentTitle(user ? `${user.firstName} ${user.lastName}` : 'Profile');

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [username]);

  if (user === undefined) {
    if (profile.isError && isApiError(profile.error) && profile.error.status === 404) {
      return (
        <section className="page profile">
          <ProfileProblem
            title="User not found."
            text={`There is no member called @${username}.`}
            action={
              <Link to="/" className={buttonClassName({})}>
                Go back home
              </Link>
            }
          />
        </section>
      );
    }
    if (profile.isError) {
      return (
        <section className="page profile">
          <ProfileProblem
            title="Profile unavailable"
            text="This profile could not be loaded."
            action={
              <Button
                loading={profile.isFetching}
                onClick={() => {
                  void profile.refetch();
                }}
              >
                Try again
              </Button>
            }
          />
        </section>
      );
    }
    return (
      <section className="page profile">
        <ProfileSkeleton />
      </section>
    );
  }

  return (
    <section className="page profile">
      <ProfileCard user={user} own={user._id === viewer._id} />
      {user.viewerBlocks === true ? (
        <BlockedNotice user={user} />
      ) : (
        <section className="profile__posts" aria-labelledby={postsHeadingId}>
          <h2 id={postsHeadingId} className="profile__posts-title">
            Posts
          </h2>
          <PinnedPosts username={user.username} />
          <PostFeed source={{ kind: 'user', username: user.username }} emptyText="No post yet!" />
        </section>
      )}
    </section>
  );
}
