import type { UseInfiniteQueryResult, InfiniteData } from '@tanstack/react-query';
import type { UserPage } from '@perch/contract';
import { useCallback } from 'react';
import { Button } from '../../shared/components/Button';
import { ListEnd } from '../../shared/components/ListEnd';
import { useRequiredSession } from '../../entities/session/SessionProvider';
import { FollowButton } from '../../entities/member/ui/FollowButton';
import { UserRow, UserRowSkeleton } from '../../entities/member/ui/UserRow';
import '../../entities/member/ui/users.css';
import { flattenUsers } from '../../entities/member/search.queries';

interface MemberResultsProps {
  query: UseInfiniteQueryResult<InfiniteData<UserPage>>;
}

/** The Members tab: matching members as in 'Who to follow?', with Follow, page by page. */
export function MemberResults({ query }: MemberResultsProps) {
  const { user: viewer } = useRequiredSession();
  const users = flattenUsers(query.data);
  const { fetchNextPage } = query;
  const loadMore = useCallback(() => {
    void fetchNextPage({ cancelRefetch: false });
  }, [fetchNextPage]);

  if (query.isPending) {
    return (
      <>
        <span className="visually-hidden" role="status">
          Searching members
        </span>
        <ul className="search-results__members" aria-hidden="true">
          {Array.from({ length: 4 }, (_, index) => (
            <li key={index}>
              <UserRowSkeleton />
            </li>
          ))}
        </ul>
      </>
    );
  }
  if (query.isError && users.length === 0) {
    return (
      <div className="feed__state feed__state--error" role="alert">
        <p>Members could not be loaded.</p>
        <Button
          variant="secondary"
          size="sm"
          loading={query.isFetching}
          onClick={() => {
            void query.refetch();
          }}
        >
          Retry
        </Button>
      </div>
    );
  }
  if (users.length === 0) {
    return <p className="feed__state feed__state--empty">No members match your search.</p>;
  }
  return (
    <>
      <ul className="search-results__members" aria-label="Matching members">
        {users.map((user) => (
          <li key={user._id}>
            <UserRow
              user={user}
              action={user._id === viewer._id ? undefined : <FollowButton user={user} />}
            />
          </li>
        ))}
      </ul>
      <ListEnd
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        failed={query.isFetchNextPageError}
        fetchNextPage={loadMore}
        itemCount={users.length}
        noun="members"
      />
    </>
  );
}
