import {
  createContext,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { NavigationType, useLocation, useNavigationType, type Location } from 'react-router-dom';

const STORAGE_KEY = 'perch-scroll-positions';
/** How long a returning screen may take to grow tall enough for its old position. */
const RESTORE_WINDOW_MS = 2000;
/** Entries kept (the oldest go first): enough for any back-and-forth a session makes. */
const MAX_ENTRIES = 100;

function readPositions(): Map<string, number> {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return new Map(Array.isArray(stored) ? (stored as [string, number][]) : []);
  } catch {
    return new Map();
  }
}

function savePositions(positions: Map<string, number>): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...positions].slice(-MAX_ENTRIES)));
  } catch {
    // Storage full or blocked: positions live for this page only.
  }
}

/**
 * Positions are kept per history entry and address: the first entry of every page load has the
 * same key ('default'), whatever its address.
 */
function entryOf(location: Location): string {
  return `${location.key} ${location.pathname}${location.search}`;
}

/**
 * Whether this page load returns to an entry (reload, Back or Forward), whose saved position
 * applies, rather than opening an address anew (a link from elsewhere, the address bar).
 */
function loadReturns(): boolean {
  const [load] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return load?.type === 'reload' || load?.type === 'back_forward';
}

/**
 * Scrolls to `top` now, or as soon as the screen (its lists still arriving) is tall enough,
 * within a short window; the member scrolling first wins. Returns a function that stops it.
 */
function restoreWhenTallEnough(top: number, done: () => void): () => void {
  const attempt = () => {
    window.scrollTo(0, top);
    if (Math.abs(window.scrollY - top) < 2) stop();
  };
  const observer = new ResizeObserver(attempt);
  const timer = window.setTimeout(() => {
    stop();
  }, RESTORE_WINDOW_MS);
  const inputs = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
    for (const input of inputs) window.removeEventListener(input, stop);
    done();
  }
  for (const input of inputs) window.addEventListener(input, stop, { passive: true });
  observer.observe(document.body);
  attempt();
  return stop;
}

/**
 * Where the screen being shown will be scrolled once it is in place: its old position when
 * returned to with Back or Forward, the top for a new visit, null when a #hash decides.
 * Scrolling lists start there instead of at wherever the previous screen was.
 */
const ArrivalScrollTop = createContext<number | null>(null);

export function useArrivalScrollTop(): number | null {
  return useContext(ArrivalScrollTop);
}

/**
 * Back and Forward return to where each screen was scrolled (also after a reload); any other
 * navigation starts at the top, or at the element the address's #hash names.
 */
export function ScrollRestoration({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigationType = useNavigationType();
  const [positions] = useState(readPositions);
  // The location the page loaded with: a Pop to it is the load itself, not Back or Forward.
  const [loadedAt] = useState(location);
  const [loadReturned] = useState(loadReturns);
  const entry = entryOf(location);
  const currentEntry = useRef(entry);
  const restoring = useRef<(() => void) | null>(null);

  const arrival = useMemo(() => {
    const saved = positions.get(entry);
    const returned =
      navigationType === NavigationType.Pop && (location !== loadedAt || loadReturned);
    if (returned && saved !== undefined) return saved;
    return location.hash ? null : 0;
  }, [positions, entry, location, loadedAt, loadReturned, navigationType]);

  useEffect(() => {
    // The app restores positions itself; the browser's own restoration would fight it.
    window.history.scrollRestoration = 'manual';
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        // While a position is being restored, the page is not where the member left it yet.
        if (restoring.current) return;
        positions.delete(currentEntry.current);
        positions.set(currentEntry.current, window.scrollY);
      });
    };
    const onHide = () => {
      savePositions(positions);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('pagehide', onHide);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('pagehide', onHide);
      window.history.scrollRestoration = 'auto';
    };
  }, [positions]);

  useLayoutEffect(() => {
    currentEntry.current = entry;
    restoring.current?.();
    if (arrival !== null && arrival > 0) {
      restoring.current = restoreWhenTallEnough(arrival, () => {
        restoring.current = null;
      });
      return;
    }
    const target = location.hash
      ? document.getElementById(decodeURIComponent(location.hash.slice(1)))
      : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [arrival, entry, location.hash]);

  return <ArrivalScrollTop.Provider value={arrival}>{children}</ArrivalScrollTop.Provider>;
}
