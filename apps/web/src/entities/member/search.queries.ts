import { SEARCH_SORTS, type SearchSort, type User, type UserPage } from '@perch/contract';
import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { useRequiredSession } from '../session/SessionProvider';
import { searchUsers } from './users.api';
import { userKeys } from './users.queries';

export const SEARCH_TABS = ['posts', 'members', 'tags'] as const;
export type SearchTab = (typeof SEARCH_TABS)[number];

/** The tab named in the address, Posts when it names none (or one that does not exist). */
export function parseTab(value: string | null): SearchTab {
  return SEARCH_TABS.find((tab) => tab === value) ?? 'posts';
}

export function parseSort(value: string | null): SearchSort {
  return SEARCH_SORTS.find((sort) => sort === value) ?? 'latest';
}

/** Members per page of the Members tab. */
export const MEMBER_PAGE_SIZE = 20;

/** Members matching `q`, page by page; idle while `enabled` is false. */
export function useMemberSearch(q: string, enabled: boolean) {
  const { token } = useRequiredSession();
  return useInfiniteQuery({
    queryKey: userKeys.searchPages(q),
    queryFn: ({ pageParam, signal }) =>
      searchUsers(q, { cursor: pageParam, limit: MEMBER_PAGE_SIZE, token, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
    enabled,
  });
}

/** The members of all loaded pages in order, each once. */
export function flattenUsers(data: InfiniteData<UserPage> | undefined): User[] {
  if (!data) return [];
  const seen = new Set<string>();
  return data.pages
    .flatMap((page) => page.users)
    .filter((user) => {
      if (seen.has(user._id)) return false;
      seen.add(user._id);
      return true;
    });
}
