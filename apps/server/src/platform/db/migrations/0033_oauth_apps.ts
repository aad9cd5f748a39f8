import type { Kysely } from 'kysely';

/**
 * Apps that act for members through Mastodon's OAuth (see mastodon/oauth): the registered apps,
 * their short-lived authorization codes, and their app-level tokens (client credentials, which
 * speak for no member). A member's token for an app is a session like any other, so it is listed
 * among the member's devices and revoked there: sessions name the app and the scopes granted.
 * Secrets and codes are kept as SHA-256 digests only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oauth_apps')
    .ifNotExists()
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('website', 'text')
    // One URI a line.
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    // Space-separated, as OAuth writes them.
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('secret_digest', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('oauth_codes')
    .ifNotExists()
    .addColumn('code_digest', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('app_id', 'varchar(26)', (c) =>
      c.notNull().references('oauth_apps.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(26)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('oauth_codes_expires_idx')
    .ifNotExists()
    .on('oauth_codes')
    .columns(['expires_at'])
    .execute();
  await db.schema
    .createTable('oauth_app_tokens')
    .ifNotExists()
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('app_id', 'varchar(26)', (c) =>
      c.notNull().references('oauth_apps.id').onDelete('cascade'),
    )
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  // Null for Perch's own sessions, which may do everything.
  await db.schema
    .alterTable('sessions')
    .addColumn('app_id', 'varchar(26)', (c) => c.references('oauth_apps.id').onDelete('cascade'))
    .execute();
  await db.schema.alterTable('sessions').addColumn('scopes', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('scopes').execute();
  await db.schema.alterTable('sessions').dropColumn('app_id').execute();
  await db.schema.dropTable('oauth_app_tokens').ifExists().execute();
  await db.schema.dropTable('oauth_codes').ifExists().execute();
  await db.schema.dropTable('oauth_apps').ifExists().execute();
}
