import type { QueryClient } from '@tanstack/react-query';
import { postFeedOptions } from '../entities/post/postFeed';
import { DEFAULT_SORT } from '../entities/post/postKeys';
import type { Session } from '../entities/session/session';
import { usernameOfHandle } from '../shared/lib/paths';
import type { ScreenName } from './screens';

/**
 * Whether the app takes over the page. A public page the server rendered (`data-public-page` on
 * the root: a profile or a post at /@username) stays as it is for a reader without a session,
 * readable and fast; a member with a session gets the app's own screen instead.
 */
export function shouldMountApp(root: HTMLElement, signedIn: boolean): boolean {
  return signedIn || !root.hasAttribute('data-public-page');
}

const SIGNED_IN_SCREENS: readonly (readonly [RegExp, ScreenName])[] = [
  [/^\/$/, 'home'],
  [/^\/explore$/, 'explore'],
  [/^\/notifications$/, 'notifications'],
  [/^\/bookmarks$/, 'bookmarks'],
  [/^\/likedPost$/, 'likedPosts'],
  [/^\/profile\/[^/]+$/, 'profile'],
  [/^\/post\/[^/]+$/, 'post'],
  [/^\/search$/, 'search'],
  [/^\/tags\/[^/]+$/, 'tag'],
  [/^\/settings$/, 'settings'],
];

function signedInScreen(pathname: string): ScreenName | null {
  const [, first, second, ...rest] = pathname.split('/');
  if (usernameOfHandle(first) !== null && rest.length === 0) {
    return second === undefined || second === '' ? 'profile' : 'post';
  }
  const found = SIGNED_IN_SCREENS.find(([pattern]) => pattern.test(pathname));
  return found ? found[1] : null;
}

/**
 * The chunks the first screen at `pathname` needs (what app/routes.tsx will render there),
 * fetched together from the start rather than one after the other as the screens nest.
 */
export function openingScreens(pathname: string, signedIn: boolean): ScreenName[] {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  if (path === '/login') return ['login'];
  if (path === '/signup') return ['signup'];
  const screen = signedInScreen(path);
  if (screen === null) return ['notFound'];
  // The guard sends a visitor without a session to the login page.
  return signedIn ? ['layout', screen] : ['login'];
}

/**
 * Asks for the data of the first screen while its chunks are still on their way, so that the
 * answer does not wait for them: Home's first page, the screen most visits open on.
 */
export function prefetchOpeningData(
  queryClient: QueryClient,
  screens: readonly ScreenName[],
  session: Session | null,
): void {
  if (session === null || !screens.includes('home')) return;
  // A failure is left to the screen, which asks again and shows it.
  queryClient
    .infiniteQuery(postFeedOptions({ kind: 'home' }, DEFAULT_SORT, session.token))
    .catch(() => undefined);
}
