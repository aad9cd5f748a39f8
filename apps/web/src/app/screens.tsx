import { lazy, type ComponentType } from 'react';

/** A screen in its own chunk: rendered through `Page`, fetched ahead of time with `preload`. */
export interface Screen {
  Page: ComponentType;
  preload: () => Promise<unknown>;
}

function screen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): Screen {
  let loaded: ComponentType | null = null;
  let loading: Promise<{ default: ComponentType }> | null = null;
  const preload = () => {
    loading ??= load().then(
      (module) => {
        loaded = pick(module);
        return { default: loaded };
      },
      (error: unknown) => {
        // A failed fetch (offline, a new build) is tried again the next time.
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(preload);
  // Once fetched (ahead of time, see prefetch.tsx) the screen renders at once, without a
  // moment of the Suspense fallback.
  function Page() {
    const Loaded = loaded;
    return Loaded === null ? <Lazy /> : <Loaded />;
  }
  return { Page, preload };
}

/**
 * Every screen of the app, each loaded when first shown (or ahead of time, see prefetch.ts), so
 * that the first download holds only what the screen it opens on needs.
 */
export const screens = {
  login: screen(
    () => import('../features/auth/LoginPage'),
    (module) => module.LoginPage,
  ),
  authorize: screen(
    () => import('../features/oauth/AuthorizePage'),
    (module) => module.AuthorizePage,
  ),
  signup: screen(
    () => import('../features/auth/SignupPage'),
    (module) => module.SignupPage,
  ),
  layout: screen(
    () => import('../features/layout/AppLayout'),
    (module) => module.AppLayout,
  ),
  home: screen(
    () => import('../features/home/HomePage'),
    (module) => module.HomePage,
  ),
  explore: screen(
    () => import('../features/explore/ExplorePage'),
    (module) => module.ExplorePage,
  ),
  notifications: screen(
    () => import('../features/notifications/NotificationsPage'),
    (module) => module.NotificationsPage,
  ),
  bookmarks: screen(
    () => import('../features/bookmarks/BookmarksPage'),
    (module) => module.BookmarksPage,
  ),
  likedPosts: screen(
    () => import('../features/likedPosts/LikedPostsPage'),
    (module) => module.LikedPostsPage,
  ),
  profile: screen(
    () => import('../features/profile/ProfilePage'),
    (module) => module.ProfilePage,
  ),
  post: screen(
    () => import('../features/posts/PostPage'),
    (module) => module.PostPage,
  ),
  search: screen(
    () => import('../features/search/SearchPage'),
    (module) => module.SearchPage,
  ),
  tag: screen(
    () => import('../features/tags/TagPage'),
    (module) => module.TagPage,
  ),
  settings: screen(
    () => import('../features/settings/SettingsPage'),
    (module) => module.SettingsPage,
  ),
  notFound: screen(
    () => import('../features/notFound/NotFoundPage'),
    (module) => module.NotFoundPage,
  ),
} satisfies Record<string, Screen>;

export type ScreenName = keyof typeof screens;
