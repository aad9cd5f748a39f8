import type { Kysely } from 'kysely';

/**
 * Scheduled work (such as sweeping unused uploads) runs once across every process sharing the
 * database: whoever holds a job's lease runs it. A lease that is not renewed expires, and another
 * process takes it over (see src/platform/infra/jobs.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_leases').ifExists().execute();
}
