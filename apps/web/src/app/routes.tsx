import { lazy, Suspense, type ComponentType } from 'react';
import { Route, Routes } from 'react-router-dom';
import { LoginPage } from '../features/auth/LoginPage';
import { PublicOnly, RequireAuth } from '../features/auth/RouteGuards';
import { SignupPage } from '../features/auth/SignupPage';
import { BookmarksPage } from '../features/bookmarks/BookmarksPage';
import { ExplorePage } from '../features/explore/ExplorePage';
import { HomePage } from '../features/home/HomePage';
import { AppLayout } from '../features/layout/AppLayout';
import { LikedPostsPage } from '../features/likedPosts/LikedPostsPage';
import { NotFoundPage } from '../features/notFound/NotFoundPage';
import { PostPage } from '../features/posts/PostPage';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { ScrollRestoration } from '../shared/components/ScrollRestoration';

// Screens a visit seldom starts on load when first opened, keeping the initial JavaScript small
// (the service worker has them precached, so later opens are instant).
const ProfilePage = lazy(() =>
  import('../features/profile/ProfilePage').then((module) => ({ default: module.ProfilePage })),
);
const NotificationsPage = lazy(() =>
  import('../features/notifications/NotificationsPage').then((module) => ({
    default: module.NotificationsPage,
  })),
);
const SearchPage = lazy(() =>
  import('../features/search/SearchPage').then((module) => ({ default: module.SearchPage })),
);
const SettingsPage = lazy(() =>
  import('../features/settings/SettingsPage').then((module) => ({ default: module.SettingsPage })),
);
const TagPage = lazy(() =>
  import('../features/tags/TagPage').then((module) => ({ default: module.TagPage })),
);

/** A screen loaded on first use; the layout stays while it arrives. */
function Lazy({ page: Page }: { page: ComponentType }) {
  return (
    <Suspense fallback={<div className="page-loading" aria-busy="true" />}>
      <Page />
    </Suspense>
  );
}

/**
 * Every screen of the app. Declarative routes: the app loads its data with TanStack Query, so
 * the data router's loaders would go unused while it costs 20 kB of gzipped JavaScript more.
 */
export function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <ScrollRestoration>
        <Routes>
          <Route element={<PublicOnly />}>
            <Route path="/login" element={<LoginPage />} />
            <Route path="/signup" element={<SignupPage />} />
          </Route>
          <Route element={<RequireAuth />}>
            <Route element={<AppLayout />}>
              <Route index element={<HomePage />} />
              <Route path="/explore" element={<ExplorePage />} />
              <Route path="/notifications" element={<Lazy page={NotificationsPage} />} />
              <Route path="/bookmarks" element={<BookmarksPage />} />
              <Route path="/likedPost" element={<LikedPostsPage />} />
              <Route path="/profile/:username" element={<Lazy page={ProfilePage} />} />
              <Route path="/post/:postId" element={<PostPage />} />
              <Route path="/search" element={<Lazy page={SearchPage} />} />
              <Route path="/tags/:tag" element={<Lazy page={TagPage} />} />
              <Route path="/settings" element={<Lazy page={SettingsPage} />} />
            </Route>
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </ScrollRestoration>
    </RouteErrorBoundary>
  );
}
