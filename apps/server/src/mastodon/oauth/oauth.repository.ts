import type { Insertable, Kysely, Selectable } from 'kysely';
import type {
  Database,
  OAuthAppsTable,
  OAuthAppTokensTable,
  OAuthCodesTable,
} from '../../platform/db/schema';

type Db = Kysely<Database>;

export type AppRow = Selectable<OAuthAppsTable>;
export type CodeRow = Selectable<OAuthCodesTable>;

export async function insertApp(db: Db, app: Insertable<OAuthAppsTable>): Promise<void> {
  await db.insertInto('oauth_apps').values(app).execute();
}

export function findApp(db: Db, id: string): Promise<AppRow | undefined> {
  return db.selectFrom('oauth_apps').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findAppByClientId(db: Db, clientId: string): Promise<AppRow | undefined> {
  return db
    .selectFrom('oauth_apps')
    .selectAll()
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

/** A new code; codes past their time are cleared on the way (they are few, and never used). */
export async function insertCode(db: Db, code: CodeRow, at: number): Promise<void> {
  await db.deleteFrom('oauth_codes').where('expires_at', '<', at).execute();
  await db.insertInto('oauth_codes').values(code).execute();
}

/** Takes a code: it is deleted as it is read, so two exchanges of it cannot both succeed. */
export function takeCode(db: Db, digest: string): Promise<CodeRow | undefined> {
  return db
    .deleteFrom('oauth_codes')
    .where('code_digest', '=', digest)
    .returningAll()
    .executeTakeFirst();
}

export async function insertAppToken(
  db: Db,
  token: Insertable<OAuthAppTokensTable>,
): Promise<void> {
  await db.insertInto('oauth_app_tokens').values(token).execute();
}

export function findAppToken(
  db: Db,
  id: string,
): Promise<Selectable<OAuthAppTokensTable> | undefined> {
  return db.selectFrom('oauth_app_tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function revokeAppToken(db: Db, id: string, at: number): Promise<void> {
  await db
    .updateTable('oauth_app_tokens')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}
