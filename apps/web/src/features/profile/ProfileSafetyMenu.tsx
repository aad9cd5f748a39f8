import type { User } from '@perch/contract';
import { useState } from 'react';
import { MoreIcon } from '../../shared/components/icons';
import { ActionMenu, type ActionMenuItem } from '../../shared/components/ActionMenu';
import { BlockDialog } from './BlockDialog';
import type { SafetyAction } from '../../entities/safety/safety.api';
import { useSafetyAction } from '../../entities/safety/safety.queries';
import { BlockIcon, MuteIcon, UnmuteIcon } from './safetyIcons';
import './safety.css';

/**
 * The "More" menu of another member's profile: Mute or Unmute, Block or Unblock. Block asks
 * first (BlockDialog); the others take effect at once.
 */
export function ProfileSafetyMenu({ user }: { user: User }) {
  const [confirmingBlock, setConfirmingBlock] = useState(false);
  const safety = useSafetyAction();
  const name = `@${user.username}`;
  const blocked = user.viewerBlocks === true;
  const muted = user.viewerMutes === true;

  const choose = (action: SafetyAction) => () => {
    if (action === 'block') setConfirmingBlock(true);
    // One change at a time: a second choice while the first is on its way is ignored.
    else if (!safety.isPending) safety.mutate({ action, user });
  };

  const items: ActionMenuItem[] = [
    muted
      ? { label: `Unmute ${name}`, icon: <UnmuteIcon size={18} />, onSelect: choose('unmute') }
      : { label: `Mute ${name}`, icon: <MuteIcon size={18} />, onSelect: choose('mute') },
    blocked
      ? { label: `Unblock ${name}`, icon: <BlockIcon size={18} />, onSelect: choose('unblock') }
      : {
          label: `Block ${name}`,
          icon: <BlockIcon size={18} />,
          danger: true,
          onSelect: choose('block'),
        },
  ];

  return (
    <>
      <ActionMenu
        label="More"
        className="profile-safety-menu"
        trigger={<MoreIcon size={20} />}
        triggerClassName="icon-btn profile-more"
        items={items}
      />
      {confirmingBlock && (
        <BlockDialog
          user={user}
          onClose={() => {
            setConfirmingBlock(false);
          }}
        />
      )}
    </>
  );
}
