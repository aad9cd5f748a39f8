import { useEffect } from 'react';
import { useSession } from '../entities/session/SessionProvider';
import { isReloading } from '../shared/lib/reloading';
import { loadSchemas } from '../shared/lib/schemas';
import { screens, type ScreenName } from './screens';

/** Where a signed-in member most often goes next: the bottom bar's and sidebar's screens. */
const NEXT_WHEN_SIGNED_IN: readonly ScreenName[] = [
  'layout',
  'home',
  'post',
  'profile',
  'explore',
  'notifications',
  'search',
  'bookmarks',
  'likedPosts',
];

/** The other form of a visitor without a session: small, so fetched once the page is idle. */
const NEXT_WHEN_SIGNED_OUT: readonly ScreenName[] = ['login', 'signup'];

/** What a visitor who starts filling a form will need once signed in. */
const NEXT_AFTER_SIGN_IN: readonly ScreenName[] = ['layout', 'home'];

type Cancel = () => void;

/** Runs `task` when the browser has nothing better to do (a short timer where it cannot tell). */
function whenIdle(task: () => void): Cancel {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: 3000 });
    return () => {
      window.cancelIdleCallback(handle);
    };
  }
  const timer = window.setTimeout(task, 200);
  return () => {
    window.clearTimeout(timer);
  };
}

/** Fetches the screens' chunks one idle moment after another, so none delays an interaction. */
export function preloadInTurn(names: readonly ScreenName[]): Cancel {
  let cancel: Cancel = () => undefined;
  const next = (index: number) => {
    const name = names[index];
    if (name === undefined) return;
    cancel = whenIdle(() => {
      if (isReloading()) return;
      screens[name].preload().then(
        () => {
          next(index + 1);
        },
        () => undefined,
      );
    });
  };
  next(0);
  return () => {
    cancel();
  };
}

/**
 * Calls `task` once, the first time the visitor types, taps or focuses anything on the screen
 * itself (its `main`; a toast such as the new version's Reload is not a start on the form).
 */
function onFirstIntent(task: () => void): Cancel {
  const events = ['pointerdown', 'keydown', 'focusin'] as const;
  const stop = () => {
    for (const type of events) document.removeEventListener(type, run, true);
  };
  function run(event: Event) {
    if (!(event.target instanceof Element) || event.target.closest('main') === null) return;
    stop();
    task();
  }
  for (const type of events) document.addEventListener(type, run, true);
  return stop;
}

/**
 * Fetches, after the first paint, the chunks of the screens likely to come next so that moving
 * there is instant. A visitor without a session gets only the other form at first: the
 * signed-in screens and the response schemas wait until they start on the form, so that opening
 * the login page costs no more than the login page.
 */
export function PrefetchNextScreens() {
  const { session } = useSession();
  const signedIn = session !== null;
  useEffect(() => {
    if (signedIn) return preloadInTurn(NEXT_WHEN_SIGNED_IN);
    const cancelIdle = preloadInTurn(NEXT_WHEN_SIGNED_OUT);
    let cancelAfter: Cancel = () => undefined;
    const cancelIntent = onFirstIntent(() => {
      loadSchemas().catch(() => undefined);
      cancelAfter = preloadInTurn(NEXT_AFTER_SIGN_IN);
    });
    return () => {
      cancelIdle();
      cancelIntent();
      cancelAfter();
    };
  }, [signedIn]);
  return null;
}
