import type { Kysely } from 'kysely';

/**
 * A session per sign-in: tokens name theirs, so logging out (or out of every device) ends them
 * before they expire. Revoked sessions keep their row until they would have expired anyway.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .ifNotExists()
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(26)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('sessions_user_idx')
    .ifNotExists()
    .on('sessions')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('sessions_expires_idx')
    .ifNotExists()
    .on('sessions')
    .columns(['expires_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sessions').ifExists().execute();
}
