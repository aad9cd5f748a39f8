import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Each member's count of unread notifications, kept by triggers on notifications, so that telling
 * a member their count reads one row instead of counting every unread notification they hold (a
 * member with 50,000 unread cost 2.8 ms per count, and a count follows every batch of likes of
 * their posts). Triggers see every change, those cascaded from a deleted post, comment or member
 * included. Members who mute someone are still counted from the rows (see countUnread): their
 * count leaves out what the muted caused.
 *
 * PostgreSQL locks a count's row until commit. Counted as rows change, a transaction could hold
 * one member's count while waiting for a post another transaction is deleting, whose cascade
 * waits for that count (the notifications consumer, holding the author's count after a like of
 * one post, waiting for another post the author deletes). So inserts and deletes are counted at
 * commit (deferred triggers), or where the transaction reads counts (settleUnreadCounts), when it
 * waits for nothing else. Reads are counted per statement over the changed rows, so marking
 * 50,000 read writes the count once rather than 50,000 versions of its row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notification_unread_counts')
    .addColumn('recipient_id', 'varchar(26)', (c) =>
      c.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('count', 'bigint', (c) => c.notNull())
    .execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) await createPostgresTriggers(db);
  else await createSqliteTriggers(db);
  await sql`
    insert into notification_unread_counts (recipient_id, count)
    select recipient_id, count(*) from notifications where read_at is null group by recipient_id
  `.execute(db);
}

async function createSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  // A decrement only updates: the row may be gone already when a member's deletion cascades.
  await sql`
    create trigger notifications_unread_insert after insert on notifications
    when new.read_at is null begin
      insert into notification_unread_counts (recipient_id, count) values (new.recipient_id, 1)
      on conflict (recipient_id) do update set count = count + 1;
    end`.execute(db);
  await sql`
    create trigger notifications_unread_delete after delete on notifications
    when old.read_at is null begin
      update notification_unread_counts set count = count - 1
      where recipient_id = old.recipient_id;
    end`.execute(db);
  await sql`
    create trigger notifications_unread_read after update of read_at on notifications
    when old.read_at is null and new.read_at is not null begin
      update notification_unread_counts set count = count - 1
      where recipient_id = old.recipient_id;
    end`.execute(db);
  await sql`
    create trigger notifications_unread_unread after update of read_at on notifications
    when old.read_at is not null and new.read_at is null begin
      insert into notification_unread_counts (recipient_id, count) values (new.recipient_id, 1)
      on conflict (recipient_id) do update set count = count + 1;
    end`.execute(db);
}

async function createPostgresTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function notifications_unread_inserted() returns trigger language plpgsql as $$ begin
      insert into notification_unread_counts as kept (recipient_id, count)
      values (new.recipient_id, 1)
      on conflict (recipient_id) do update set count = kept.count + 1;
      return null;
    end $$`.execute(db);
  await sql`
    create function notifications_unread_deleted() returns trigger language plpgsql as $$ begin
      update notification_unread_counts set count = count - 1
      where recipient_id = old.recipient_id;
      return null;
    end $$`.execute(db);
  // Rows read and unread in one statement, as one change of each recipient's count.
  await sql`
    create function notifications_unread_updated() returns trigger language plpgsql as $$ begin
      insert into notification_unread_counts as kept (recipient_id, count)
      select recipient_id, sum(delta) from (
        select recipient_id, 1 as delta from new_rows where read_at is null
        union all
        select recipient_id, -1 as delta from old_rows where read_at is null
      ) changes
      group by recipient_id having sum(delta) <> 0
      on conflict (recipient_id) do update set count = kept.count + excluded.count;
      return null;
    end $$`.execute(db);
  await sql`
    create constraint trigger notifications_unread_insert after insert on notifications
    deferrable initially deferred for each row when (new.read_at is null)
    execute function notifications_unread_inserted()`.execute(db);
  await sql`
    create constraint trigger notifications_unread_delete after delete on notifications
    deferrable initially deferred for each row when (old.read_at is null)
    execute function notifications_unread_deleted()`.execute(db);
  await sql`
    create trigger notifications_unread_update after update on notifications
    referencing old table as old_rows new table as new_rows
    for each statement execute function notifications_unread_updated()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['insert', 'delete', 'read', 'unread', 'update']) {
    await sql`drop trigger if exists ${sql.raw(`notifications_unread_${name}`)}${
      db.getExecutor().adapter instanceof PostgresAdapter ? sql` on notifications` : sql``
    }`.execute(db);
  }
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const name of ['inserted', 'deleted', 'updated']) {
      await sql`drop function if exists ${sql.raw(`notifications_unread_${name}`)}()`.execute(db);
    }
  }
  await db.schema.dropTable('notification_unread_counts').ifExists().execute();
}
