import type { User } from '@perch/contract';
import { Button } from '../../shared/components/Button';
import { Modal } from '../../shared/components/Modal';
import { useSafetyAction } from '../../entities/safety/safety.queries';
import './safety.css';

interface BlockDialogProps {
  user: Pick<User, '_id' | 'username'>;
  onClose: () => void;
}

/** Asks before blocking a member, saying what a block does; closes once the block is made. */
export function BlockDialog({ user, onClose }: BlockDialogProps) {
  const block = useSafetyAction({ onDone: onClose });
  const name = `@${user.username}`;

  return (
    <Modal
      open
      onClose={onClose}
      title={`Block ${name}?`}
      size="sm"
      footer={
        <>
          <Button variant="secondary" data-autofocus onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="danger"
            loading={block.isPending}
            onClick={() => {
              block.mutate({ action: 'block', user });
            }}
          >
            Block
          </Button>
        </>
      }
    >
      <div className="block-dialog">
        <p>Blocking keeps you and {name} apart:</p>
        <ul className="block-dialog__list">
          <li>They can&apos;t see your posts or your profile, and you won&apos;t see theirs.</li>
          <li>Follows between you end, and neither of you can follow the other.</li>
          <li>They can&apos;t like, comment on or mention your posts.</li>
        </ul>
        <p className="block-dialog__note">
          They are not told. You can unblock them any time from their profile or Settings.
        </p>
      </div>
    </Modal>
  );
}
