import { ErrorMessages, USERNAME_PATTERN } from '@perch/contract';
import { notFound } from '../../lib/errors';
import { profilePath } from './html/parts';
import type { ProfileView } from './html/profile';
import { pageContext } from './page-context';
import type { PagesDeps } from './pages.deps';

/** Posts a profile page shows at a time. */
export const PROFILE_PAGE_SIZE = 20;

/** A page to show, or where the page lives (the username's own spelling). */
export type PageAnswer<View> = { view: View } | { movedTo: string };

/**
 * A member's profile as people who are not signed in see it, with a page of their posts, newest
 * first (`cursor`: the posts API's, from the page before). 404 for an unknown member or one who
 * keeps their profile from people who are not signed in.
 */
export async function profilePage(
  deps: PagesDeps,
  username: string,
  cursor: string | null,
): Promise<PageAnswer<ProfileView>> {
  const member = USERNAME_PATTERN.test(username) ? await deps.users.publicMember(username) : null;
  if (!member) throw notFound(ErrorMessages.userNotFound);
  const { user } = member;
  if (user.username !== username) {
    const page = cursor === null ? '' : `?cursor=${encodeURIComponent(cursor)}`;
    return { movedTo: `${profilePath(user.username)}${page}` };
  }
  const { posts, nextCursor } = await deps.posts.byAuthor(user.username, null, {
    sort: 'latest',
    limit: PROFILE_PAGE_SIZE,
    ...(cursor !== null && { cursor }),
  });
  const context = await pageContext(
    deps,
    posts.map((post) => ({ entities: post.entities })),
    [user.avatarURL, ...posts.map((post) => post.mediaURL)],
  );
  return { view: { member, posts, cursor, nextCursor, context } };
}
