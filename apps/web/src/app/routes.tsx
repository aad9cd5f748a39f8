import { Suspense, type ReactNode } from 'react';
import { Outlet, Route, Routes, useParams } from 'react-router-dom';
import { PublicOnly, RequireAuth } from '../features/auth/RouteGuards';
import { ScrollRestoration } from '../shared/components/ScrollRestoration';
import { usernameOfHandle } from '../shared/lib/paths';
import { PrefetchNextScreens } from './prefetch';
import { RouteErrorBoundary } from './RouteErrorBoundary';
import { screens, type Screen } from './screens';

/** A screen rendered once its chunk has arrived; the layout around it stays meanwhile. */
function Lazy({ screen: { Page } }: { screen: Screen }) {
  return (
    <Suspense fallback={<div className="page-loading" aria-busy="true" />}>
      <Page />
    </Suspense>
  );
}

/** The signed-in shell, loaded on its own: login and signup never need it. */
function SignedInLayout() {
  const { Page: Layout } = screens.layout;
  return <Layout />;
}

/**
 * `/:handle` and `/:handle/:postId` are the public addresses `/@username` and
 * `/@username/postId` (React Router's parameters are whole segments); any other single segment
 * is an unknown page.
 */
function PublicAddress() {
  const { handle } = useParams();
  if (usernameOfHandle(handle) === null) return <Lazy screen={screens.notFound} />;
  return <Outlet />;
}

function signedInScreens(): ReactNode {
  return (
    <Route element={<RequireAuth />}>
      <Route element={<SignedInLayout />}>
        <Route index element={<Lazy screen={screens.home} />} />
        <Route path="/explore" element={<Lazy screen={screens.explore} />} />
        <Route path="/notifications" element={<Lazy screen={screens.notifications} />} />
        <Route path="/bookmarks" element={<Lazy screen={screens.bookmarks} />} />
        <Route path="/likedPost" element={<Lazy screen={screens.likedPosts} />} />
        <Route path="/profile/:username" element={<Lazy screen={screens.profile} />} />
        <Route path="/post/:postId" element={<Lazy screen={screens.post} />} />
        <Route path="/search" element={<Lazy screen={screens.search} />} />
        <Route path="/tags/:tag" element={<Lazy screen={screens.tag} />} />
        <Route path="/settings" element={<Lazy screen={screens.settings} />} />
      </Route>
    </Route>
  );
}

/**
 * Every screen of the app, each in its own chunk (app/screens.ts). Declarative routes: the app
 * loads its data with TanStack Query, so the data router's loaders would go unused while it
 * costs 20 kB of gzipped JavaScript more.
 */
export function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <ScrollRestoration>
        {/* Until a first screen's chunk arrives the page stays as it is: nothing to shift. */}
        <Suspense fallback={null}>
          <Routes>
            <Route element={<PublicOnly />}>
              <Route path="/login" element={<Lazy screen={screens.login} />} />
              <Route path="/signup" element={<Lazy screen={screens.signup} />} />
            </Route>
            {/* An app asking the member's leave (Mastodon's OAuth): login first when signed out. */}
            <Route path="/oauth/authorize" element={<Lazy screen={screens.authorize} />} />
            {signedInScreens()}
            <Route path="/:handle" element={<PublicAddress />}>
              <Route element={<RequireAuth />}>
                <Route element={<SignedInLayout />}>
                  <Route index element={<Lazy screen={screens.profile} />} />
                  <Route path=":postId" element={<Lazy screen={screens.post} />} />
                </Route>
              </Route>
            </Route>
            <Route path="*" element={<Lazy screen={screens.notFound} />} />
          </Routes>
        </Suspense>
        <PrefetchNextScreens />
      </ScrollRestoration>
    </RouteErrorBoundary>
  );
}
