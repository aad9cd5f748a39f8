import type { User } from '@perch/contract';
import { Button, type ButtonSize } from '../../../shared/components/Button';
import { usePendingFollowIds, useFollowMutation } from '../users.queries';

interface FollowButtonProps {
  user: User;
  size?: ButtonSize;
  className?: string;
}

/**
 * 'Follow' or 'Unfollow', depending on whether the viewer follows `user`. The change shows at
 * once; while it is on its way further clicks are ignored (the button keeps focus).
 */
export function FollowButton({ user, size = 'sm', className }: FollowButtonProps) {
  const followMutation = useFollowMutation();
  const pending = usePendingFollowIds().includes(user._id);
  const following = user.followedByViewer === true;

  return (
    <Button
      variant={following ? 'secondary' : 'primary'}
      size={size}
      className={['follow-btn', className].filter(Boolean).join(' ')}
      aria-disabled={pending || undefined}
      onClick={(event) => {
        event.stopPropagation();
        if (pending) return;
        followMutation.mutate({ user, follow: !following });
      }}
    >
      {following ? 'Unfollow' : 'Follow'}
    </Button>
  );
}
