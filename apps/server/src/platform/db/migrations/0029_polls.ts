import type { Kysely } from 'kysely';

/**
 * Polls on posts (see modules/polls).
 *
 * - `polls`: one a post at most, with its author (for the closing job's notifications), its close
 *   time, and its totals kept in each vote's transaction; `closed` is set once, by the closing job
 *   that claims the poll, so that its end is told once.
 * - `poll_options`: the options in order, each with its votes kept alike.
 * - `poll_voters`: one row per member who voted, the guard that a member votes once.
 * - `poll_votes`: the options each voter chose (one, or more in a multiple-choice poll).
 * - `posts.poll`: the poll as a card shows it, as JSON (as `entities` is kept), rewritten by each
 *   vote, so that a post's row alone makes its view.
 *
 * Rows go with the post or the member (foreign keys cascade).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('polls')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('post_id', 'varchar(26)', (c) =>
      c.notNull().unique().references('posts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('multiple', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('votes_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('voters_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('closed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The closing job's scan: the open polls by close time.
  await db.schema
    .createIndex('polls_open_expires_idx')
    .on('polls')
    .columns(['closed', 'expires_at'])
    .execute();
  await db.schema.createIndex('polls_user_idx').on('polls').column('user_id').execute();

  await db.schema
    .createTable('poll_options')
    .addColumn('poll_id', 'varchar(26)', (c) =>
      c.notNull().references('polls.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('votes_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('poll_options_pk', ['poll_id', 'position'])
    .execute();

  await db.schema
    .createTable('poll_voters')
    .addColumn('poll_id', 'varchar(26)', (c) =>
      c.notNull().references('polls.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(26)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('voted_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('poll_voters_pk', ['poll_id', 'user_id'])
    .execute();
  // A member's votes: viewer state, the export, an account's deletion.
  await db.schema
    .createIndex('poll_voters_user_idx')
    .on('poll_voters')
    .columns(['user_id', 'poll_id'])
    .execute();

  await db.schema
    .createTable('poll_votes')
    .addColumn('poll_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(26)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('poll_votes_pk', ['poll_id', 'user_id', 'position'])
    .addForeignKeyConstraint(
      'poll_votes_voter_fk',
      ['poll_id', 'user_id'],
      'poll_voters',
      ['poll_id', 'user_id'],
      (c) => c.onDelete('cascade'),
    )
    .execute();

  await db.schema.alterTable('posts').addColumn('poll', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').dropColumn('poll').execute();
  await db.schema.dropTable('poll_votes').ifExists().execute();
  await db.schema.dropTable('poll_voters').ifExists().execute();
  await db.schema.dropTable('poll_options').ifExists().execute();
  await db.schema.dropTable('polls').ifExists().execute();
}
