import type { PagesDeps } from './pages.deps';
import { postPage } from './post-page';
import { profilePage } from './profile-page';

export type { PagesDeps } from './pages.deps';

/**
 * The pages people who are not signed in may read: a member's profile and a post, each a use
 * case of its own (profile-page.ts, post-page.ts), read as a visitor (no viewer).
 */
export function createPagesService(deps: PagesDeps) {
  return {
    profile: (username: string, cursor: string | null) => profilePage(deps, username, cursor),
    post: (username: string, postId: string) => postPage(deps, username, postId),
  };
}

export type PagesService = ReturnType<typeof createPagesService>;
