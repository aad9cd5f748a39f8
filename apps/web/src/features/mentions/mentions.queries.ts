import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRequiredSession } from '../../entities/session/SessionProvider';
import { searchUsers } from '../../entities/member/users.api';
import { userKeys } from '../../entities/member/users.queries';

/** How many members the mention list offers. */
export const MENTION_SUGGESTIONS_LIMIT = 6;

/** Members whose names contain `q`, to mention; idle while `q` is empty. */
export function useMentionSuggestions(q: string) {
  const { token } = useRequiredSession();
  return useQuery({
    queryKey: userKeys.mentions(q),
    queryFn: ({ signal }) => searchUsers(q, { limit: MENTION_SUGGESTIONS_LIMIT, token, signal }),
    enabled: q !== '',
    // The list stays while the next letters' answer is on its way.
    placeholderData: keepPreviousData,
  });
}
