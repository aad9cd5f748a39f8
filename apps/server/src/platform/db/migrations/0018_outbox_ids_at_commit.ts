import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * PostgreSQL: an event's id is given as its transaction commits, not when it is recorded.
 *
 * Ids must become visible in order (a reader past id N has seen every id below it), so ids are
 * handed out under one lock held until commit. Taken by the writer before its last insert, that
 * lock was held across two round trips to the client, and under load across the client's busy
 * event loop between them: every write on the instance waited in line for milliseconds. Taken by
 * a deferred trigger, it is held only from the trigger to the end of the commit, inside the
 * server. The insert's own id (from the same sequence) is replaced then by a newer one.
 *
 * SQLite needs none of this: its write transactions already run one at a time.
 */

// The outbox's advisory lock space ("outb"), as writers took it before.
const OUTBOX_LOCK_SPACE = 0x6f757462;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    create function outbox_id_at_commit() returns trigger language plpgsql as $$
    begin
      perform pg_advisory_xact_lock(${sql.lit(OUTBOX_LOCK_SPACE)}, hashtext('append'));
      update outbox set id = nextval(pg_get_serial_sequence('outbox', 'id')) where id = new.id;
      return null;
    end $$`.execute(db);
  await sql`
    create constraint trigger outbox_id_at_commit after insert on outbox
    deferrable initially deferred for each row execute function outbox_id_at_commit()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop trigger if exists outbox_id_at_commit on outbox`.execute(db);
  await sql`drop function if exists outbox_id_at_commit()`.execute(db);
}
