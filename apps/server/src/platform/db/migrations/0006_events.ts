import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The outbox (every domain event, recorded in its write's transaction), where each exactly-once
 * consumer stands in it, and the notifications one of them writes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // Ids only grow: they are the event stream's ids and every reader's position.
  await db.schema
    .createTable('outbox')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('type', 'varchar(40)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outbox_created_idx').on('outbox').column('created_at').execute();

  await db.schema
    .createTable('event_consumers')
    .addColumn('name', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('last_id', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('recipient_id', 'varchar(26)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('actor_id', 'varchar(26)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('post_id', 'varchar(26)', (c) => c.references('posts.id').onDelete('cascade'))
    .addColumn('comment_id', 'varchar(26)', (c) => c.references('comments.id').onDelete('cascade'))
    /** Notifications with the same key are shown as one group ("Ada and 3 others liked…"). */
    .addColumn('group_key', 'varchar(80)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('read_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('notifications_recipient_idx')
    .on('notifications')
    .columns(['recipient_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('notifications_unread_idx')
    .on('notifications')
    .columns(['recipient_id', 'group_key'])
    .where(sql.ref('read_at'), 'is', null)
    .execute();
  // Deleting a post, comment or member cascades here; without these each delete would scan.
  for (const column of ['post_id', 'comment_id', 'actor_id'] as const) {
    await db.schema
      .createIndex(`notifications_${column}_idx`)
      .on('notifications')
      .column(column)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notifications').ifExists().execute();
  await db.schema.dropTable('event_consumers').ifExists().execute();
  await db.schema.dropTable('outbox').ifExists().execute();
}
