import { PostgresAdapter, type Kysely } from 'kysely';
import { createNameGrams, dropNameGrams, type NameGrams } from './member-name-grams';

/**
 * SQLite: every pair of adjacent characters of each member's lower-cased username, first and last
 * name (see member-name-grams.ts). Member search answers two-character text from it in username
 * order, reading only the members that hold the pair; the trigram index (migration 0009) cannot
 * find text shorter than three characters, and reading members in username order until a page
 * fills reads every member for a rare pair.
 *
 * PostgreSQL needs none of it: its trigram index and planner answer short text (migration 0009).
 */
const PAIRS: NameGrams = { table: 'member_name_pairs', column: 'pair', size: 2 };

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await createNameGrams(db, PAIRS);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await dropNameGrams(db, PAIRS);
}
