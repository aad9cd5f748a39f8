import type { User } from '@perch/contract';
import { useId, useRef } from 'react';
import { Button } from '../../shared/components/Button';
import { LoadProblem } from './LoadProblem';
import type { SafetyListKind } from '../../entities/safety/safety.api';
import { useSafetyAction, useSafetyList } from '../../entities/safety/safety.queries';
import { flattenUsers } from '../../entities/member/search.queries';
import { UserRow } from '../../entities/member/ui/UserRow';
import '../../entities/member/ui/users.css';

const TEXTS = {
  blocked: {
    title: 'Blocked',
    listLabel: 'Blocked members',
    loading: 'Loading blocked members…',
    failed: 'Blocked members could not be loaded.',
    moreFailed: 'More blocked members could not be loaded.',
    empty: 'You have not blocked anyone.',
    action: 'unblock',
    button: 'Unblock',
  },
  muted: {
    title: 'Muted',
    listLabel: 'Muted members',
    loading: 'Loading muted members…',
    failed: 'Muted members could not be loaded.',
    moreFailed: 'More muted members could not be loaded.',
    empty: 'You have not muted anyone.',
    action: 'unmute',
    button: 'Unmute',
  },
} as const;

interface RowProps {
  user: User;
  kind: SafetyListKind;
  /** Runs once the member left the list (their row is gone by then). */
  onRemoved: () => void;
}

function SafetyRow({ user, kind, onRemoved }: RowProps) {
  const texts = TEXTS[kind];
  const change = useSafetyAction({ onDone: onRemoved });
  return (
    <li className="safety-list__row" data-testid={`${kind}-member`}>
      <UserRow
        user={user}
        action={
          <Button
            variant="secondary"
            size="sm"
            aria-label={`${texts.button} @${user.username}`}
            loading={change.isPending}
            onClick={() => {
              change.mutate({ action: texts.action, user });
            }}
          >
            {texts.button}
          </Button>
        }
      />
    </li>
  );
}

/** The members the viewer blocked (or muted), each with Unblock (or Unmute), page by page. */
export function SafetyList({ kind }: { kind: SafetyListKind }) {
  const texts = TEXTS[kind];
  const query = useSafetyList(kind);
  const users = flattenUsers(query.data);
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusHeading = () => {
    headingRef.current?.focus();
  };

  let content;
  if (query.data === undefined && query.isError) {
    content = (
      <LoadProblem
        message={texts.failed}
        retrying={query.isFetching}
        onRetry={() => {
          void query.refetch();
        }}
      />
    );
  } else if (query.data === undefined) {
    content = (
      <p className="settings-note" role="status">
        {texts.loading}
      </p>
    );
  } else if (users.length === 0) {
    content = <p className="settings-note">{texts.empty}</p>;
  } else {
    content = (
      <>
        <ul className="safety-list__members" aria-label={texts.listLabel}>
          {users.map((user) => (
            <SafetyRow key={user._id} user={user} kind={kind} onRemoved={focusHeading} />
          ))}
        </ul>
        {query.isFetchNextPageError && !query.isFetchingNextPage && (
          <p className="settings-form__error" role="alert">
            {texts.moreFailed}
          </p>
        )}
        {query.hasNextPage && (
          <div className="settings-actions">
            <Button
              variant="secondary"
              size="sm"
              loading={query.isFetchingNextPage}
              onClick={() => {
                void query.fetchNextPage({ cancelRefetch: false });
              }}
            >
              {query.isFetchNextPageError ? 'Retry' : 'Show more'}
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <section className="safety-list" aria-labelledby={headingId}>
      <h3 id={headingId} ref={headingRef} tabIndex={-1} className="safety-list__title">
        {texts.title}
      </h3>
      {content}
    </section>
  );
}
