import pg from 'pg';

/** On the PostgreSQL run, fail early and clearly when the server cannot be reached. */
export default async function setup(): Promise<void> {
  if (process.env.PERCH_TEST_DB !== 'postgres') return;
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error('TEST_DATABASE_URL is not set: cannot run the server tests on PostgreSQL');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`PostgreSQL at TEST_DATABASE_URL is not reachable: ${reason}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
