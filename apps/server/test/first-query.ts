import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from '../src/platform/db/schema';

/**
 * The first query `send` sends through the database handle it is given, caught on its way to
 * `db`. Compiled queries are sent as they are, past any plugin, so the handle itself listens.
 */
export async function firstQuerySent(
  db: Kysely<Database>,
  send: (db: Kysely<Database>) => Promise<unknown>,
): Promise<CompiledQuery> {
  let caught: CompiledQuery | undefined;
  const catching = new Proxy(db, {
    get(target, property) {
      if (property !== 'executeQuery') {
        const value = Reflect.get(target, property, target) as unknown;
        // Kysely's private fields answer only to the instance itself.
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      }
      return (query: CompiledQuery) => {
        caught ??= query;
        return target.executeQuery(query);
      };
    },
  });
  await send(catching);
  if (!caught) throw new Error('no query was sent');
  return caught;
}

/** SQLite's plan for `query`, one step a line. */
export async function sqlitePlanOf(db: Kysely<Database>, query: CompiledQuery): Promise<string> {
  const plan = await db.executeQuery<{ detail: string }>({
    ...query,
    sql: `explain query plan ${query.sql}`,
  });
  return plan.rows.map((row) => row.detail).join('\n');
}
