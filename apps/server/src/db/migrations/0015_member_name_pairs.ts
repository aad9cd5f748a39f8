import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * SQLite: every pair of adjacent characters of each member's lower-cased username, first and last
 * name, with the member's lower-cased username beside it. Member search answers two-character text
 * from it in username order, reading only the members that hold the pair; the trigram index
 * (migration 0009) cannot find text shorter than three characters, and reading members in username
 * order until a page fills reads every member for a rare pair.
 *
 * Pairs are cut by SQLite's own lower() and substr(), the functions the search's LIKE conditions
 * use, so the table holds a member exactly when those conditions can match them. Triggers keep it
 * current (profile edits are its only updates); a member's deletion takes their pairs with it.
 * Triggers may not use a recursive CTE, so the character positions come from json_each over a
 * fixed list as long as the longest name allows. SQLite runs migrations outside a transaction, so
 * every step may run twice.
 *
 * PostgreSQL needs none of it: its trigram index and planner answer short text (migration 0009).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`
    CREATE TABLE IF NOT EXISTS member_name_pairs (
      pair text NOT NULL,
      lower_username text NOT NULL,
      user_id varchar(26) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      PRIMARY KEY (pair, lower_username)
    ) WITHOUT ROWID
  `.execute(db);
  await sql`
    CREATE INDEX IF NOT EXISTS member_name_pairs_user_idx ON member_name_pairs (user_id)
  `.execute(db);
  await sql`
    CREATE TRIGGER IF NOT EXISTS member_name_pairs_insert AFTER INSERT ON users BEGIN
      INSERT OR IGNORE INTO member_name_pairs (pair, lower_username, user_id)
      ${pairsOf(sql`new`)};
    END
  `.execute(db);
  await sql`
    CREATE TRIGGER IF NOT EXISTS member_name_pairs_update
    AFTER UPDATE OF username, first_name, last_name ON users
    WHEN old.username IS NOT new.username
      OR old.first_name IS NOT new.first_name
      OR old.last_name IS NOT new.last_name
    BEGIN
      DELETE FROM member_name_pairs WHERE user_id = old.id;
      INSERT OR IGNORE INTO member_name_pairs (pair, lower_username, user_id)
      ${pairsOf(sql`new`)};
    END
  `.execute(db);
  await sql`
    INSERT OR IGNORE INTO member_name_pairs (pair, lower_username, user_id)
    ${pairsOf(sql`users`, sql`FROM users`)}
  `.execute(db);
}

/** Usernames are at most 30 characters, first and last names 50: a pair starts at 1 to 49. */
const POSITIONS = JSON.stringify(Array.from({ length: 49 }, (_, index) => index + 1));

/** The SELECT of every pair of `row`'s three names (a trigger's `new`, or `users` with `from`). */
function pairsOf(row: ReturnType<typeof sql>, from = sql``) {
  return sql`
    SELECT DISTINCT substr(names.name, positions.value, 2), names.lower_username, names.user_id
    FROM (
      SELECT ${row}.id AS user_id, lower(${row}.username) AS lower_username,
        lower(${row}.username) AS name ${from}
      UNION ALL SELECT ${row}.id, lower(${row}.username), lower(${row}.first_name) ${from}
      UNION ALL SELECT ${row}.id, lower(${row}.username), lower(${row}.last_name) ${from}
    ) AS names
    JOIN json_each(${sql.lit(POSITIONS)}) AS positions ON positions.value < length(names.name)
  `;
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const trigger of ['member_name_pairs_insert', 'member_name_pairs_update']) {
    await sql`DROP TRIGGER IF EXISTS ${sql.id(trigger)}`.execute(db);
  }
  await sql`DROP TABLE IF EXISTS member_name_pairs`.execute(db);
}
