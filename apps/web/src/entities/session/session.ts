import type { User } from '@perch/contract';

/** Local storage key of the persisted session record `{ token, user }`. */
export const SESSION_STORAGE_KEY = 'loginDetails';

export interface Session {
  token: string;
  user: User;
}

export interface SessionSnapshot {
  session: Session | null;
  /** True once the server has confirmed the current token (or a fresh login produced it). */
  verified: boolean;
}

export interface SessionStore {
  getSnapshot: () => SessionSnapshot;
  subscribe: (listener: () => void) => () => void;
  /** Stores a session the server just issued (login, signup). */
  signIn: (session: Session) => void;
  /** Marks the current token as confirmed and refreshes the stored user. */
  confirm: (token: string, user: User) => void;
  /**
   * Replaces the stored record of the signed-in member (after a profile edit or a follow),
   * keeping the token. Ignored when nobody is signed in or the record is another member's.
   */
  updateUser: (user: User) => void;
  /** Forgets the session, in memory and in storage. */
  clear: () => void;
}

const USER_TEXT_FIELDS = [
  '_id',
  'id',
  'username',
  'firstName',
  'lastName',
  'bio',
  'createdAt',
  'updatedAt',
] as const;
const USER_COUNT_FIELDS = ['followersCount', 'followingCount', 'postsCount'] as const;

/**
 * Whether a stored member has the fields the app shows. Checked by hand rather than with the
 * contract's schema, which loads on demand: the session is read synchronously before the first
 * render, and /api/auth/me replaces the record with a validated one right after.
 */
function isStoredUser(value: unknown): value is User {
  if (typeof value !== 'object' || value === null) return false;
  const user = value as Record<string, unknown>;
  return (
    USER_TEXT_FIELDS.every((field) => typeof user[field] === 'string') &&
    user._id !== '' &&
    USER_COUNT_FIELDS.every((field) => Number.isInteger(user[field])) &&
    (user.avatarURL === null || typeof user.avatarURL === 'string')
  );
}

function parseStoredSession(raw: string | null): Session | null {
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const { token, user } = value as Record<string, unknown>;
    if (typeof token !== 'string' || token === '') return null;
    return isStoredUser(user) ? { token, user } : null;
  } catch {
    return null;
  }
}

/**
 * The session stored in `storage`, or null when there is none (or it is unreadable); reads
 * only, unlike the store, which also drops an unreadable record.
 */
export function readStoredSession(storage: Storage | undefined = defaultStorage()): Session | null {
  try {
    return parseStoredSession(storage?.getItem(SESSION_STORAGE_KEY) ?? null);
  } catch {
    return null;
  }
}

function safeStorage(storage: Storage | undefined) {
  return {
    read(): string | null {
      try {
        return storage?.getItem(SESSION_STORAGE_KEY) ?? null;
      } catch {
        return null;
      }
    },
    write(session: Session): void {
      try {
        storage?.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
      } catch {
        // Storage full or blocked: the session still lives in memory for this tab.
      }
    },
    remove(): void {
      try {
        storage?.removeItem(SESSION_STORAGE_KEY);
      } catch {
        // Nothing to do.
      }
    },
  };
}

type SessionEventTarget = Pick<Window, 'addEventListener' | 'removeEventListener'>;

function defaultStorage(): Storage | undefined {
  try {
    // Throws where the browser blocks site data.
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * Holds the signed-in session, mirrored to local storage under `loginDetails` and kept in step
 * with other tabs through the `storage` event.
 */
export function createSessionStore(
  storage: Storage | undefined = defaultStorage(),
  eventTarget: SessionEventTarget | undefined = typeof window === 'undefined' ? undefined : window,
): SessionStore {
  const persisted = safeStorage(storage);
  const restored = parseStoredSession(persisted.read());
  if (restored === null) persisted.remove();

  let snapshot: SessionSnapshot = { session: restored, verified: false };
  const listeners = new Set<() => void>();

  const set = (next: SessionSnapshot) => {
    snapshot = next;
    for (const listener of [...listeners]) listener();
  };

  const onStorage = (event: StorageEvent) => {
    if (event.key !== SESSION_STORAGE_KEY && event.key !== null) return;
    const session = parseStoredSession(persisted.read());
    if (session?.token === snapshot.session?.token) {
      if (session) set({ session, verified: snapshot.verified });
      return;
    }
    set({ session, verified: false });
  };

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      if (listeners.size === 0) eventTarget?.addEventListener('storage', onStorage);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) eventTarget?.removeEventListener('storage', onStorage);
      };
    },
    signIn(session) {
      persisted.write(session);
      set({ session, verified: true });
    },
    confirm(token, user) {
      if (snapshot.session?.token !== token) return;
      const session = { token, user };
      persisted.write(session);
      set({ session, verified: true });
    },
    updateUser(user) {
      const current = snapshot.session;
      if (current?.user._id !== user._id) return;
      const session = { token: current.token, user };
      persisted.write(session);
      set({ session, verified: snapshot.verified });
    },
    clear() {
      persisted.remove();
      if (snapshot.session === null && !snapshot.verified) return;
      set({ session: null, verified: false });
    },
  };
}
