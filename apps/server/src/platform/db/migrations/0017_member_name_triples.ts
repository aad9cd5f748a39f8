import { PostgresAdapter, type Kysely } from 'kysely';
import { createNameGrams, dropNameGrams, type NameGrams } from './member-name-grams';

/**
 * SQLite: every run of three adjacent characters of each member's lower-cased names (see
 * member-name-grams.ts). Member search answers three-character text from it in username order,
 * the 21 entries of one triple, instead of counting the trigram index's matches (migration 0009)
 * and then reading and sorting all of them, up to 500 members.
 *
 * PostgreSQL needs none of it (see migration 0015).
 */
const TRIPLES: NameGrams = { table: 'member_name_triples', column: 'triple', size: 3 };

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await createNameGrams(db, TRIPLES);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await dropNameGrams(db, TRIPLES);
}
