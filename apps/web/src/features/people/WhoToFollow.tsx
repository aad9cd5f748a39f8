import { useEffect, useId } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../shared/components/Button';
import { FollowButton } from '../../entities/member/ui/FollowButton';
import { UserRow, UserRowSkeleton } from '../../entities/member/ui/UserRow';
import { useSuggestionsQuery } from '../../entities/member/users.queries';

/** Rows shown while the suggestions load. */
export const SUGGESTION_SKELETON_ROWS = 4;

/** 'Who to follow?': members the viewer does not follow yet, each with a Follow button. */
export function WhoToFollow() {
  const headingId = useId();
  const suggestions = useSuggestionsQuery();
  const { error } = suggestions;

  useEffect(() => {
    if (error) toast.error(error.message, { id: 'suggestions-load-error' });
  }, [error]);

  let content;
  if (suggestions.isPending) {
    content = (
      <>
        <span className="visually-hidden" role="status">
          Loading suggestions
        </span>
        <ul className="who-to-follow__list" aria-hidden="true">
          {Array.from({ length: SUGGESTION_SKELETON_ROWS }, (_, index) => (
            <li key={index}>
              <UserRowSkeleton
                action={
                  <Button size="sm" disabled tabIndex={-1}>
                    Follow
                  </Button>
                }
              />
            </li>
          ))}
        </ul>
      </>
    );
  } else if (suggestions.isError) {
    content = (
      <div className="who-to-follow__empty">
        <Button
          variant="secondary"
          size="sm"
          loading={suggestions.isFetching}
          onClick={() => {
            void suggestions.refetch();
          }}
        >
          Try again
        </Button>
      </div>
    );
  } else if (suggestions.data.users.length === 0) {
    content = <p className="who-to-follow__empty">No one new to follow right now.</p>;
  } else {
    content = (
      <ul className="who-to-follow__list">
        {suggestions.data.users.map((user) => (
          <li key={user._id}>
            <UserRow user={user} action={<FollowButton user={user} />} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section className="who-to-follow" aria-labelledby={headingId}>
      <h2 id={headingId} className="who-to-follow__title">
        Who to follow?
      </h2>
      {content}
    </section>
  );
}
