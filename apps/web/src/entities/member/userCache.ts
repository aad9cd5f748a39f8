import type { User, UserPage } from '@perch/contract';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';

/** A list of members loaded page by page (the search page). */
export type UserPages = InfiniteData<UserPage>;

function isUser(data: unknown): data is User {
  return (
    typeof data === 'object' &&
    data !== null &&
    typeof (data as Partial<User>)._id === 'string' &&
    typeof (data as Partial<User>).followersCount === 'number'
  );
}

function isUserPage(data: unknown): data is UserPage {
  return (
    typeof data === 'object' && data !== null && Array.isArray((data as Partial<UserPage>).users)
  );
}

function isUserPages(data: unknown): data is UserPages {
  return (
    typeof data === 'object' &&
    data !== null &&
    Array.isArray((data as Partial<UserPages>).pages) &&
    (data as UserPages).pages.every(isUserPage)
  );
}

/** The members a cached answer lists: a profile, a page of members, or loaded pages of them. */
function usersIn(data: unknown): User[] {
  if (isUser(data)) return [data];
  if (isUserPage(data)) return data.users;
  if (isUserPages(data)) return data.pages.flatMap((page) => page.users);
  return [];
}

/** Whether a cached answer (a profile or a list of members) shows the member with this id. */
export function showsUser(data: unknown, userId: string): boolean {
  return usersIn(data).some((user) => user._id === userId);
}

/** Profiles and member lists showing this member are out of date (e.g. their post count). */
export function invalidateMember(queryClient: QueryClient, userId: string): void {
  void queryClient.invalidateQueries({
    queryKey: ['users'],
    predicate: (query) => showsUser(query.state.data, userId),
  });
}

/** The cached record of a member, from a profile, a search or 'Who to follow?'. */
export function findCachedUser(queryClient: QueryClient, userId: string): User | undefined {
  for (const [, data] of queryClient.getQueriesData({ queryKey: ['users'] })) {
    const found = usersIn(data).find((user) => user._id === userId);
    if (found) return found;
  }
  return undefined;
}

function mapUserInPage(page: UserPage, userId: string, change: (user: User) => User): UserPage {
  if (!page.users.some((user) => user._id === userId)) return page;
  return { ...page, users: page.users.map((user) => (user._id === userId ? change(user) : user)) };
}

/** Applies `change` to the member in every loaded page; keeps the data as it was otherwise. */
export function mapUserInPages(
  data: UserPages,
  userId: string,
  change: (user: User) => User,
): UserPages {
  const pages = data.pages.map((page) => mapUserInPage(page, userId, change));
  return pages.some((page, index) => page !== data.pages[index]) ? { ...data, pages } : data;
}

/**
 * Applies `change` to the member with this id wherever they are cached: their profile, search
 * results and 'Who to follow?'. Answers that do not show them are left as they are.
 */
export function updateUserInCaches(
  queryClient: QueryClient,
  userId: string,
  change: (user: User) => User,
): void {
  for (const [queryKey, data] of queryClient.getQueriesData({ queryKey: ['users'] })) {
    if (isUser(data)) {
      if (data._id === userId) queryClient.setQueryData(queryKey, change(data));
    } else if (isUserPage(data)) {
      const next = mapUserInPage(data, userId, change);
      if (next !== data) queryClient.setQueryData(queryKey, next);
    } else if (isUserPages(data)) {
      const next = mapUserInPages(data, userId, change);
      if (next !== data) queryClient.setQueryData(queryKey, next);
    }
  }
}
