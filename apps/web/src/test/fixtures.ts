import type { User } from '@perch/contract';
import { SESSION_STORAGE_KEY, type Session } from '../entities/session/session';

export function makeUser(overrides: Partial<User> = {}): User {
  const id = overrides._id ?? '01JTESTUSER0000000000000001';
  return {
    _id: id,
    id,
    username: 'ada',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    bio: 'First programmer.',
    avatarURL: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    followersCount: 0,
    followingCount: 0,
    postsCount: 0,
    ...overrides,
  };
}

export function storeSession(session: Session): void {
  window.localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
}

export function readStoredSession(): unknown {
  const raw = window.localStorage.getItem(SESSION_STORAGE_KEY);
  return raw === null ? null : (JSON.parse(raw) as unknown);
}
