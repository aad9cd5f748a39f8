import type { User, UserPage } from '@perch/contract';
import type { QueryClient } from '@tanstack/react-query';

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

/** Whether a cached answer (a profile or a list of members) shows the member with this id. */
export function showsUser(data: unknown, userId: string): boolean {
  if (isUser(data)) return data._id === userId;
  return isUserPage(data) && data.users.some((user) => user._id === userId);
}

/** The cached record of a member, from a profile, a search or 'Who to follow?'. */
export function findCachedUser(queryClient: QueryClient, userId: string): User | undefined {
  for (const [, data] of queryClient.getQueriesData({ queryKey: ['users'] })) {
    if (isUser(data) && data._id === userId) return data;
    if (isUserPage(data)) {
      const found = data.users.find((user) => user._id === userId);
      if (found) return found;
    }
  }
  return undefined;
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
    } else if (isUserPage(data) && data.users.some((user) => user._id === userId)) {
      queryClient.setQueryData<UserPage>(queryKey, {
        ...data,
        users: data.users.map((user) => (user._id === userId ? change(user) : user)),
      });
    }
  }
}
