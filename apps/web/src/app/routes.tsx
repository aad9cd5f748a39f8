import { Outlet, ScrollRestoration, type RouteObject } from 'react-router-dom';
import { LoginPage } from '../features/auth/LoginPage';
import { PublicOnly, RequireAuth } from '../features/auth/RouteGuards';
import { SignupPage } from '../features/auth/SignupPage';
import { BookmarksPage } from '../features/bookmarks/BookmarksPage';
import { ExplorePage } from '../features/explore/ExplorePage';
import { HomePage } from '../features/home/HomePage';
import { AppLayout } from '../features/layout/AppLayout';
import { LikedPostsPage } from '../features/likedPosts/LikedPostsPage';
import { NotFoundPage } from '../features/notFound/NotFoundPage';
import { NotificationsPage } from '../features/notifications/NotificationsPage';
import { PostPage } from '../features/posts/PostPage';
import { ProfilePage } from '../features/profile/ProfilePage';
import { SearchPage } from '../features/search/SearchPage';
import { SettingsPage } from '../features/settings/SettingsPage';
import { TagPage } from '../features/tags/TagPage';
import { RouteErrorPage } from './RouteErrorPage';

function Root() {
  return (
    <>
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        element: <PublicOnly />,
        children: [
          { path: '/login', element: <LoginPage /> },
          { path: '/signup', element: <SignupPage /> },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { index: true, element: <HomePage /> },
              { path: '/explore', element: <ExplorePage /> },
              { path: '/notifications', element: <NotificationsPage /> },
              { path: '/bookmarks', element: <BookmarksPage /> },
              { path: '/likedPost', element: <LikedPostsPage /> },
              { path: '/profile/:username', element: <ProfilePage /> },
              { path: '/post/:postId', element: <PostPage /> },
              { path: '/search', element: <SearchPage /> },
              { path: '/tags/:tag', element: <TagPage /> },
              { path: '/settings', element: <SettingsPage /> },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
