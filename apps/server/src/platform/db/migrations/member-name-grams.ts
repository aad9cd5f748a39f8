import { sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * SQLite tables of every run of `size` adjacent characters ("grams") of each member's lower-cased
 * username, first and last name, with the member's lower-cased username beside it: member search
 * answers text of exactly `size` characters from the entries of that gram, in username order,
 * reading only the members that hold it (see modules/users/member-search.repository.ts).
 *
 * Grams are cut by SQLite's own lower() and substr(), the functions the search's LIKE conditions
 * use, so a table holds a member exactly when those conditions can match them. Triggers keep it
 * current (profile edits are its only updates); a member's deletion takes their grams with it.
 * Triggers may not use a recursive CTE, so the character positions come from json_each over a
 * fixed list as long as the longest name allows. SQLite runs migrations outside a transaction, so
 * every step may run twice.
 */
export interface NameGrams {
  table: string;
  /** The column holding the gram. */
  column: string;
  size: number;
}

/** Usernames are at most 30 characters, first and last names 50: a gram starts at 1 to 49. */
const POSITIONS = JSON.stringify(Array.from({ length: 49 }, (_, index) => index + 1));

/** The SELECT of every gram of `row`'s three names (a trigger's `new`, or `users` with `from`). */
function gramsOf({ size }: NameGrams, row: RawBuilder<unknown>, from = sql``) {
  return sql`
    SELECT DISTINCT substr(names.name, positions.value, ${sql.lit(size)}), names.lower_username, names.user_id
    FROM (
      SELECT ${row}.id AS user_id, lower(${row}.username) AS lower_username,
        lower(${row}.username) AS name ${from}
      UNION ALL SELECT ${row}.id, lower(${row}.username), lower(${row}.first_name) ${from}
      UNION ALL SELECT ${row}.id, lower(${row}.username), lower(${row}.last_name) ${from}
    ) AS names
    JOIN json_each(${sql.lit(POSITIONS)}) AS positions
      ON positions.value + ${sql.lit(size - 1)} <= length(names.name)
  `;
}

export async function createNameGrams(db: Kysely<unknown>, grams: NameGrams): Promise<void> {
  const table = sql.id(grams.table);
  const columns = sql`(${sql.id(grams.column)}, lower_username, user_id)`;
  await sql`
    CREATE TABLE IF NOT EXISTS ${table} (
      ${sql.id(grams.column)} text NOT NULL,
      lower_username text NOT NULL,
      user_id varchar(26) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      PRIMARY KEY (${sql.id(grams.column)}, lower_username)
    ) WITHOUT ROWID
  `.execute(db);
  await sql`
    CREATE INDEX IF NOT EXISTS ${sql.id(`${grams.table}_user_idx`)} ON ${table} (user_id)
  `.execute(db);
  await sql`
    CREATE TRIGGER IF NOT EXISTS ${sql.id(`${grams.table}_insert`)} AFTER INSERT ON users BEGIN
      INSERT OR IGNORE INTO ${table} ${columns}
      ${gramsOf(grams, sql`new`)};
    END
  `.execute(db);
  await sql`
    CREATE TRIGGER IF NOT EXISTS ${sql.id(`${grams.table}_update`)}
    AFTER UPDATE OF username, first_name, last_name ON users
    WHEN old.username IS NOT new.username
      OR old.first_name IS NOT new.first_name
      OR old.last_name IS NOT new.last_name
    BEGIN
      DELETE FROM ${table} WHERE user_id = old.id;
      INSERT OR IGNORE INTO ${table} ${columns}
      ${gramsOf(grams, sql`new`)};
    END
  `.execute(db);
  await sql`
    INSERT OR IGNORE INTO ${table} ${columns}
    ${gramsOf(grams, sql`users`, sql`FROM users`)}
  `.execute(db);
}

export async function dropNameGrams(db: Kysely<unknown>, grams: NameGrams): Promise<void> {
  for (const trigger of [`${grams.table}_insert`, `${grams.table}_update`]) {
    await sql`DROP TRIGGER IF EXISTS ${sql.id(trigger)}`.execute(db);
  }
  await sql`DROP TABLE IF EXISTS ${sql.id(grams.table)}`.execute(db);
}
