import type { User } from '@perch/contract';
import { useId } from 'react';
import { Button } from '../../shared/components/Button';
import { useSafetyAction } from '../../entities/safety/safety.queries';
import { BlockIcon } from './safetyIcons';
import './safety.css';

/** Stands in for the posts of a member the viewer blocked, with Unblock. */
export function BlockedNotice({ user }: { user: Pick<User, '_id' | 'username'> }) {
  const unblock = useSafetyAction();
  const titleId = useId();

  return (
    <section className="blocked-notice" aria-labelledby={titleId}>
      <span className="blocked-notice__icon">
        <BlockIcon size={24} />
      </span>
      <h2 id={titleId} className="blocked-notice__title">
        You blocked @{user.username}
      </h2>
      <p className="blocked-notice__text">
        You don&apos;t see their posts, and they can&apos;t see your posts or your profile.
      </p>
      <Button
        variant="secondary"
        loading={unblock.isPending}
        onClick={() => {
          unblock.mutate({ action: 'unblock', user });
        }}
      >
        Unblock
      </Button>
    </section>
  );
}
