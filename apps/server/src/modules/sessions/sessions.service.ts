import { SESSION_NOT_FOUND, type SessionList } from '@perch/contract';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Viewer } from '../../lib/viewer';
import type { Database } from '../../platform/db/schema';
import type { EventRecorder, Transact } from '../../platform/events/transactions';
import { notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toIso } from '../../lib/time';
import * as repo from './sessions.repository';

/**
 * How long a checked session is trusted without asking the database again. A revocation clears
 * the cache of the process that made it at once, and of every other process when its
 * `sessions.revoked` event arrives (the relay: within about a second); this is the bound when
 * events stall.
 */
export const SESSION_CACHE_MS = 30_000;
/** `last_used_at` moves at most this often, so reads do not become writes. */
const TOUCH_EVERY_MS = 60_000;
const USER_AGENT_MAX = 300;
const DAY = 24 * 60 * 60 * 1000;

/** What an app's session was granted (see mastodon/oauth). */
export interface AppGrant {
  appId: string;
  scopes: readonly string[];
  ttlSeconds: number;
}

/** What a verified token's session says: who it speaks for, or why it no longer does. */
export type SessionCheck = { viewer: Viewer } | { ended: 'revoked' | 'unknown' };

export interface SessionsServiceDeps {
  db: Kysely<Database>;
  transact: Transact;
  tokenTtlSeconds: number;
}

/**
 * In the caller's transaction: ends these sessions of the member (all of them when `sessionIds`
 * is null), except `exceptId`, and records it; answers those it ended. The caller forgets them
 * once it committed.
 */
export async function revokeWithin(
  trx: Kysely<Database>,
  events: EventRecorder,
  userId: string,
  sessionIds: readonly string[] | null,
  exceptId?: string,
): Promise<string[]> {
  if (sessionIds?.length === 0) return [];
  const ids = await repo.revokeSessions(trx, userId, { ids: sessionIds, exceptId }, Date.now());
  if (ids.length > 0) {
    events.record({ type: 'sessions.revoked', payload: { userId, sessionIds: ids } });
  }
  return ids;
}

/**
 * Server-side sessions behind the tokens: every token names its session, and a token whose
 * session was revoked (logout, log out everywhere) is refused even before it expires.
 */
export function createSessionsService({ db, transact, tokenTtlSeconds }: SessionsServiceDeps) {
  const cache = new LRUCache<string, repo.SessionCheckRow>({ max: 50_000, ttl: SESSION_CACHE_MS });

  async function load(id: string): Promise<repo.SessionCheckRow | undefined> {
    const cached = cache.get(id);
    if (cached) return cached;
    const row = await repo.findSessionWithMember(db, id);
    if (!row) return undefined;
    cache.set(id, row);
    const now = Date.now();
    if (row.revoked_at === null && now - row.last_used_at > TOUCH_EVERY_MS) {
      row.last_used_at = now;
      await repo.touchSession(db, id, now);
    }
    return row;
  }

  const forget = (ids: readonly string[]) => {
    for (const id of ids) cache.delete(id);
  };

  /** revokeWithin, in a transaction of its own. */
  async function revoke(
    userId: string,
    sessionIds: readonly string[] | null,
    exceptId?: string,
  ): Promise<string[]> {
    if (sessionIds?.length === 0) return [];
    const revoked = await transact((trx, events) =>
      revokeWithin(trx, events, userId, sessionIds, exceptId),
    );
    forget(revoked);
    return revoked;
  }

  return {
    /**
     * A new session for a sign-in, or for an app the member authorized (`grant`: it may use only
     * the scopes granted, for as long as apps' tokens last); its token expires with it.
     */
    async open(
      userId: string,
      userAgent: string,
      grant?: AppGrant,
    ): Promise<{ id: string; expiresAt: number }> {
      const now = Date.now();
      const session = {
        id: newId(now),
        user_id: userId,
        user_agent: userAgent.slice(0, USER_AGENT_MAX),
        created_at: now,
        expires_at: now + (grant?.ttlSeconds ?? tokenTtlSeconds) * 1000,
        ...(grant && { app_id: grant.appId, scopes: grant.scopes.join(' ') }),
      };
      await repo.insertSession(db, session);
      return { id: session.id, expiresAt: session.expires_at };
    },

    async check(sessionId: string, userId: string): Promise<SessionCheck> {
      const row = await load(sessionId);
      if (row?.user_id !== userId) return { ended: 'unknown' };
      if (row.revoked_at !== null || row.expires_at <= Date.now()) return { ended: 'revoked' };
      const viewer: Viewer = { id: row.user_id, username: row.username, sessionId: row.id };
      if (row.app_id !== null) {
        viewer.appId = row.app_id;
        viewer.scopes = (row.scopes ?? '').split(' ').filter((scope) => scope.length > 0);
      }
      return { viewer };
    },

    /** The viewer's signed-in devices, this one marked. */
    async list(viewer: Viewer): Promise<SessionList> {
      const rows = await repo.listLiveSessions(db, viewer.id, Date.now());
      return {
        sessions: rows.map((row) => ({
          _id: row.id,
          id: row.id,
          createdAt: toIso(row.created_at),
          lastUsedAt: toIso(row.last_used_at),
          userAgent: row.user_agent,
          current: row.id === viewer.sessionId,
          ...(row.app_name !== null && { appName: row.app_name }),
        })),
      };
    },

    revoke,
    revokeWithin,

    /** Ends one of the viewer's sessions (a device they no longer use); 404 if it is not theirs. */
    async revokeOne(viewer: Viewer, sessionId: string): Promise<void> {
      const [revoked] = await revoke(viewer.id, [sessionId]);
      if (revoked === undefined) throw notFound(SESSION_NOT_FOUND);
    },

    /** Which member and app a session belongs to, revoked or not (an app revoking its token). */
    owner: (sessionId: string) => repo.findSession(db, sessionId),

    /** Relay listener's part: sessions revoked by any process stop being trusted here too. */
    forget,

    /** Expired sessions are kept a day (a late request gets 401, not a surprise), then deleted. */
    pruneExpired: () => repo.deleteSessionsExpiredBefore(db, Date.now() - DAY),
  };
}

export type SessionsService = ReturnType<typeof createSessionsService>;
