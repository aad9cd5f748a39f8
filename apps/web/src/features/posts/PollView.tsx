import type { Poll } from '@perch/contract';
import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../shared/components/Button';
import { isApiError } from '../../shared/lib/api';
import { useVotePoll } from '../../entities/post/poll';
import { percentOf, pollSummary } from './pollText';
import './poll.css';

/** The results: a bar and a share per option, the viewer's choices marked. */
function PollResults({ poll }: { poll: Poll }) {
  return (
    <ul className="poll__results" aria-label="Poll results">
      {poll.options.map((option, position) => {
        const share = percentOf(option.votesCount ?? 0, poll.votesCount);
        const chosen = poll.ownVotes.includes(position);
        return (
          <li key={option.title} className="poll__result">
            <span className="poll__result-label">
              <span className="poll__share">{share}%</span> {option.title}
              {chosen && <span className="poll__chosen"> (your choice)</span>}
            </span>
            <span
              className={chosen ? 'poll__bar poll__bar--chosen' : 'poll__bar'}
              style={{ width: `${String(share)}%` }}
              aria-hidden="true"
            />
          </li>
        );
      })}
    </ul>
  );
}

/** The options to choose from (radios, or checkboxes in a multiple-choice poll) and Vote. */
function PollForm({ poll, postId }: { poll: Poll; postId: string }) {
  const [chosen, setChosen] = useState<number[]>([]);
  const vote = useVotePoll(postId, poll.id);
  const name = useId();
  const toggle = (position: number, on: boolean) => {
    if (!poll.multiple) setChosen([position]);
    else setChosen((was) => (on ? [...was, position] : was.filter((p) => p !== position)));
  };
  return (
    <form
      className="poll__form"
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen.length === 0 || vote.isPending) return;
        vote.mutate(chosen, {
          onError: (error) => {
            toast.error(isApiError(error) ? error.message : 'Your vote could not be sent.');
          },
        });
      }}
    >
      <fieldset className="poll__fieldset">
        <legend className="visually-hidden">
          {poll.multiple ? 'Poll: choose one or more' : 'Poll: choose one'}
        </legend>
        {poll.options.map((option, position) => (
          <label key={option.title} className="poll__option">
            <input
              type={poll.multiple ? 'checkbox' : 'radio'}
              name={name}
              checked={chosen.includes(position)}
              onChange={(event) => {
                toggle(position, event.target.checked);
              }}
            />
            <span>{option.title}</span>
          </label>
        ))}
      </fieldset>
      <Button
        type="submit"
        size="sm"
        className="poll__vote"
        disabled={chosen.length === 0}
        loading={vote.isPending}
      >
        Vote
      </Button>
    </form>
  );
}

/**
 * A post's poll: the options with a Vote button until the viewer voted, then (or once it ended,
 * or on their own poll) the results as bars with shares; 'N votes · 2 days left' or 'Closed'.
 */
export function PollView({ poll, postId }: { poll: Poll; postId: string }) {
  const counted = poll.options.every((option) => option.votesCount !== null);
  return (
    <div className="poll">
      {counted ? <PollResults poll={poll} /> : <PollForm poll={poll} postId={postId} />}
      <p className="poll__summary">{pollSummary(poll)}</p>
    </div>
  );
}
