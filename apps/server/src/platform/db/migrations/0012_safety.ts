import type { Kysely } from 'kysely';

/**
 * Block and mute (see modules/safety): one row per member (user_id) keeping another (target_id)
 * away. The key serves "does A block B" and a member's own rows; the target index serves "who
 * blocks me" (a block works both ways); the created index serves the lists, newest first. Rows go
 * with either member (foreign keys cascade), so a deleted account leaves none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['blocks', 'mutes'] as const) {
    await db.schema
      .createTable(table)
      .ifNotExists()
      .addColumn('user_id', 'varchar(26)', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('target_id', 'varchar(26)', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['user_id', 'target_id'])
      .execute();
    await db.schema
      .createIndex(`${table}_target_idx`)
      .ifNotExists()
      .on(table)
      .columns(['target_id'])
      .execute();
    await db.schema
      .createIndex(`${table}_user_created_idx`)
      .ifNotExists()
      .on(table)
      .columns(['user_id', 'created_at', 'target_id'])
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mutes').ifExists().execute();
  await db.schema.dropTable('blocks').ifExists().execute();
}
