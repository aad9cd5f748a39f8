import type { User } from '@perch/contract';
import { Avatar } from '../../shared/components/Avatar';
import './mentions.css';

export interface MentionListboxProps {
  id: string;
  /** The members offered; the list shows while there are some. */
  users: User[];
  activeId: string | null;
  optionId: (user: User) => string;
  onChoose: (user: User) => void;
  onActivate: (user: User) => void;
}

/**
 * The members offered for an @mention, under the field. Focus stays in the field (options are
 * pointed at with aria-activedescendant); a live region says how many there are.
 */
export function MentionListbox({
  id,
  users,
  activeId,
  optionId,
  onChoose,
  onActivate,
}: MentionListboxProps) {
  const count = users.length;
  return (
    <>
      <span className="visually-hidden" aria-live="polite">
        {count === 0 ? '' : `${String(count)} ${count === 1 ? 'member' : 'members'} to mention`}
      </span>
      {count > 0 && (
        <ul id={id} role="listbox" aria-label="Members to mention" className="mention-list">
          {users.map((user) => (
            <li
              key={user._id}
              id={optionId(user)}
              role="option"
              aria-selected={user._id === activeId}
              className="mention-list__option"
              // Keeps focus (and the caret) in the field, so the click lands on the option.
              onMouseDown={(event) => {
                event.preventDefault();
              }}
              onMouseMove={() => {
                if (user._id !== activeId) onActivate(user);
              }}
              onClick={() => {
                onChoose(user);
              }}
            >
              <Avatar src={user.avatarURL} size="sm" />
              <span className="mention-list__names">
                <span className="mention-list__name">
                  {user.firstName} {user.lastName}
                </span>
                <span className="mention-list__username">@{user.username}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
