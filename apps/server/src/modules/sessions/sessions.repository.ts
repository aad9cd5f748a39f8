import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

export interface SessionCheckRow {
  id: string;
  user_id: string;
  username: string;
  expires_at: number;
  revoked_at: number | null;
  last_used_at: number;
  app_id: string | null;
  scopes: string | null;
}

export async function insertSession(
  db: Db,
  session: {
    id: string;
    user_id: string;
    user_agent: string;
    created_at: number;
    expires_at: number;
    app_id?: string;
    scopes?: string;
  },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ ...session, last_used_at: session.created_at })
    .execute();
}

/** The session with its member's current name: what every token check needs, in one query. */
export function findSessionWithMember(db: Db, id: string): Promise<SessionCheckRow | undefined> {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id',
      's.user_id',
      'u.username',
      's.expires_at',
      's.revoked_at',
      's.last_used_at',
      's.app_id',
      's.scopes',
    ])
    .where('s.id', '=', id)
    .executeTakeFirst();
}

export async function touchSession(db: Db, id: string, at: number): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: at }).where('id', '=', id).execute();
}

export interface LiveSessionRow {
  id: string;
  user_agent: string;
  created_at: number;
  last_used_at: number;
  /** The name of the app the session was granted to, if it was. */
  app_name: string | null;
}

/** The member's live sessions, most recently used first (a member has a handful; 100 at most). */
export function listLiveSessions(db: Db, userId: string, at: number): Promise<LiveSessionRow[]> {
  return db
    .selectFrom('sessions as s')
    .leftJoin('oauth_apps as a', 'a.id', 's.app_id')
    .select(['s.id', 's.user_agent', 's.created_at', 's.last_used_at', 'a.name as app_name'])
    .where('s.user_id', '=', userId)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', at)
    .orderBy('s.last_used_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(100)
    .execute();
}

/** A session whatever its state, for an app that revokes a token it holds. */
export function findSession(
  db: Db,
  id: string,
): Promise<{ id: string; user_id: string; app_id: string | null } | undefined> {
  return db
    .selectFrom('sessions')
    .select(['id', 'user_id', 'app_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Ends the member's live sessions among `ids` (all of them when `ids` is null), except `exceptId`;
 * answers which it ended.
 */
export async function revokeSessions(
  db: Db,
  userId: string,
  which: { ids: readonly string[] | null; exceptId?: string },
  at: number,
): Promise<string[]> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: at })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at);
  if (which.ids !== null) query = query.where('id', 'in', which.ids);
  if (which.exceptId !== undefined) query = query.where('id', '<>', which.exceptId);
  const rows = await query.returning('id').execute();
  return rows.map((row) => row.id);
}

export async function deleteSessionsExpiredBefore(db: Db, at: number): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', at).execute();
}
