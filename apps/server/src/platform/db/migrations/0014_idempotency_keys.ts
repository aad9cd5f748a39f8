import type { Kysely } from 'kysely';

/**
 * Idempotency keys of creates (see modules/idempotency): one row per member and key, naming the
 * post or comment the first request made. The row goes with what it names (a retry after a delete
 * creates anew) and with the member; the created index serves the hourly prune.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .ifNotExists()
    .addColumn('user_id', 'varchar(26)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('key', 'varchar(100)', (c) => c.notNull())
    .addColumn('post_id', 'varchar(26)', (c) => c.references('posts.id').onDelete('cascade'))
    .addColumn('comment_id', 'varchar(26)', (c) => c.references('comments.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute();
  await db.schema
    .createIndex('idempotency_keys_created_idx')
    .ifNotExists()
    .on('idempotency_keys')
    .columns(['created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').ifExists().execute();
}
