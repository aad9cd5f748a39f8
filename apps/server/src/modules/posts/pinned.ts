import { ErrorMessages, PINNED_POSTS_MAX, type PinnedPosts } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { notFound } from '../../lib/errors';
import type { PostsDeps } from './posts.deps';
import * as repo from './posts.repository';

/**
 * A member's pinned posts, newest pin first, for their profile to show above the others (their
 * list of posts stays as it was, for clients that know nothing of pins). As that list, 404 across
 * a block, and a muted member's own page still shows them; a deleted post's pin went with it.
 */
export async function pinnedPosts(
  { reads, presenter, users, hidden }: Pick<PostsDeps, 'reads' | 'presenter' | 'users' | 'hidden'>,
  username: string,
  viewer: Viewer | null,
): Promise<PinnedPosts> {
  const authorId = await users.idOf(username);
  if (!authorId || (await hidden.separated(viewer?.id ?? null, authorId))) {
    throw notFound(ErrorMessages.userNotFound);
  }
  const ids = await repo.pinnedPostIds(reads, authorId, PINNED_POSTS_MAX);
  return { posts: await presenter.packMany(ids, viewer) };
}
