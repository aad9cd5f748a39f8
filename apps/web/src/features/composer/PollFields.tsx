import {
  POLL_DURATIONS,
  POLL_OPTION_MAX,
  POLL_OPTIONS_MAX,
  POLL_OPTIONS_MIN,
  type PollInput,
} from '@perch/contract';
import { useId, type ReactNode } from 'react';
import { IconButton } from '../../shared/components/IconButton';
import { CloseIcon } from '../../shared/components/icons';

/** A poll as the composer edits it: options as typed, the duration in seconds, the choice kind. */
export interface PollDraft {
  options: string[];
  expiresIn: number;
  multiple: boolean;
}

/** A new poll: two empty options, open a day, one choice. */
export const NEW_POLL: PollDraft = { options: ['', ''], expiresIn: 24 * 60 * 60, multiple: false };

/** The poll as it is sent (options trimmed; the server checks the rest and says why). */
export const pollToSend = (poll: PollDraft): PollInput => ({
  options: poll.options.map((option) => option.trim()),
  expiresIn: poll.expiresIn,
  multiple: poll.multiple,
});

interface PollFieldsProps {
  poll: PollDraft;
  onChange: (poll: PollDraft) => void;
  disabled: boolean;
}

/** The poll's options (2 to 4, added and removed), its duration and whether several may be chosen. */
export function PollFields({ poll, onChange, disabled }: PollFieldsProps) {
  const durationId = useId();
  const multipleId = useId();
  const setOption = (position: number, text: string) => {
    onChange({ ...poll, options: poll.options.map((was, i) => (i === position ? text : was)) });
  };
  return (
    <fieldset className="poll-fields">
      <legend className="visually-hidden">Poll</legend>
      {poll.options.map((option, position) => (
        // Options have no identity beyond their place while they are typed.
        <div key={position} className="poll-fields__option">
          <input
            type="text"
            className="poll-fields__input"
            aria-label={`Option ${String(position + 1)}`}
            placeholder={`Option ${String(position + 1)}`}
            value={option}
            maxLength={POLL_OPTION_MAX}
            readOnly={disabled}
            onChange={(event) => {
              setOption(position, event.target.value);
            }}
          />
          {poll.options.length > POLL_OPTIONS_MIN && (
            <IconButton
              aria-label={`Remove option ${String(position + 1)}`}
              className="poll-fields__remove"
              disabled={disabled}
              onClick={() => {
                onChange({ ...poll, options: poll.options.filter((_, i) => i !== position) });
              }}
            >
              <CloseIcon size={18} />
            </IconButton>
          )}
        </div>
      ))}
      <div className="poll-fields__settings">
        {poll.options.length < POLL_OPTIONS_MAX && (
          <button
            type="button"
            className="poll-fields__add"
            disabled={disabled}
            onClick={() => {
              onChange({ ...poll, options: [...poll.options, ''] });
            }}
          >
            Add option
          </button>
        )}
        <label htmlFor={durationId} className="visually-hidden">
          Poll duration
        </label>
        <select
          id={durationId}
          className="poll-fields__duration"
          value={poll.expiresIn}
          disabled={disabled}
          onChange={(event) => {
            onChange({ ...poll, expiresIn: Number(event.target.value) });
          }}
        >
          {POLL_DURATIONS.map((duration) => (
            <option key={duration.seconds} value={duration.seconds}>
              {duration.label}
            </option>
          ))}
        </select>
        <span className="poll-fields__multiple">
          <input
            id={multipleId}
            type="checkbox"
            role="switch"
            checked={poll.multiple}
            disabled={disabled}
            onChange={(event) => {
              onChange({ ...poll, multiple: event.target.checked });
            }}
          />
          <label htmlFor={multipleId}>Multiple choice</label>
        </span>
      </div>
    </fieldset>
  );
}

/** What the editor shows of the poll: its fields, the Poll button, whether images are off. */
export function editorPoll({
  poll = null,
  onPollChange,
  newPoll,
  busy,
  image,
}: {
  poll?: PollDraft | null;
  onPollChange?: (poll: PollDraft | null) => void;
  newPoll?: PollDraft;
  busy: boolean;
  image: unknown;
}): { fields: ReactNode; tool: ReactNode; imageDisabled: boolean } {
  if (!onPollChange || !newPoll) return { fields: null, tool: null, imageDisabled: false };
  return {
    fields: poll && <PollFields poll={poll} onChange={onPollChange} disabled={busy} />,
    tool: (
      <IconButton
        aria-label="Poll"
        aria-pressed={poll !== null}
        className="post-editor__tool post-editor__tool--text"
        disabled={busy || image !== null}
        onClick={() => {
          onPollChange(poll === null ? newPoll : null);
        }}
      >
        Poll
      </IconButton>
    ),
    imageDisabled: poll !== null,
  };
}
