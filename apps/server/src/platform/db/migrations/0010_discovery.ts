import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';
import { backfillEntities } from './discovery-backfill';
import { upPostSearchPostgres, upPostSearchSqlite } from './discovery-search';

/**
 * Tags and mentions (see @perch/contract entities.ts) and post search.
 *
 * - `posts.entities`, `comments.entities`: the text's tags and resolved mentions as the API answers
 *   them (JSON), written with the text; null when there are none.
 * - `post_tags`, `comment_tags`: one row per distinct tag of a text, with its author and the
 *   text's creation time (for the tag page and trending tags). `post_mentions`,
 *   `comment_mentions`: the members a text mentions. All go with their post, comment or member.
 * - `tags`: each tag's number of posts, kept by triggers on post_tags so that every way a row
 *   goes (a delete, an edit, a cascade) counts.
 * - Post search: see discovery-search.ts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['posts', 'comments']) {
    if (!(await hasColumn(db, table, 'entities'))) {
      await db.schema.alterTable(table).addColumn('entities', 'text').execute();
    }
  }
  const clustered = isPostgres(db) ? sql`` : sql`without rowid`;
  await db.schema
    .createTable('tags')
    .ifNotExists()
    .addColumn('name', 'varchar(300)', (c) => c.primaryKey())
    .addColumn('post_count', 'integer', (c) => c.notNull().defaultTo(0))
    .modifyEnd(clustered)
    .execute();
  for (const owner of ['post', 'comment'] as const) {
    const parent = owner === 'post' ? 'posts' : 'comments';
    await db.schema
      .createTable(`${owner}_tags`)
      .ifNotExists()
      .addColumn('tag', 'varchar(300)', (c) => c.notNull())
      .addColumn(`${owner}_id`, 'varchar(26)', (c) =>
        c.notNull().references(`${parent}.id`).onDelete('cascade'),
      )
      .addColumn('author_id', 'varchar(26)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${owner}_tags_pk`, ['tag', `${owner}_id`])
      .modifyEnd(clustered)
      .execute();
    await db.schema
      .createIndex(`${owner}_tags_${owner}_idx`)
      .ifNotExists()
      .on(`${owner}_tags`)
      .columns([`${owner}_id`])
      .execute();
    await db.schema
      .createIndex(`${owner}_tags_created_idx`)
      .ifNotExists()
      .on(`${owner}_tags`)
      .columns(['created_at'])
      .execute();
    await db.schema
      .createTable(`${owner}_mentions`)
      .ifNotExists()
      .addColumn(`${owner}_id`, 'varchar(26)', (c) =>
        c.notNull().references(`${parent}.id`).onDelete('cascade'),
      )
      .addColumn('user_id', 'varchar(26)', (c) =>
        c.notNull().references('users.id').onDelete('cascade'),
      )
      .addPrimaryKeyConstraint(`${owner}_mentions_pk`, [`${owner}_id`, 'user_id'])
      .modifyEnd(clustered)
      .execute();
    await db.schema
      .createIndex(`${owner}_mentions_user_idx`)
      .ifNotExists()
      .on(`${owner}_mentions`)
      .columns(['user_id'])
      .execute();
  }
  if (isPostgres(db)) {
    await upTagCountPostgres(db);
    await upPostSearchPostgres(db);
  } else {
    await upTagCountSqlite(db);
    await upPostSearchSqlite(db);
  }
  await backfillEntities(db);
}

async function hasColumn(db: Kysely<unknown>, table: string, column: string): Promise<boolean> {
  const tables = await db.introspection.getTables();
  return tables.some(
    (each) => each.name === table && each.columns.some((entry) => entry.name === column),
  );
}

async function upTagCountSqlite(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TRIGGER IF NOT EXISTS post_tags_count_insert AFTER INSERT ON post_tags BEGIN
      INSERT INTO tags (name, post_count) VALUES (new.tag, 1)
      ON CONFLICT (name) DO UPDATE SET post_count = post_count + 1;
    END
  `.execute(db);
  await sql`
    CREATE TRIGGER IF NOT EXISTS post_tags_count_delete AFTER DELETE ON post_tags BEGIN
      UPDATE tags SET post_count = post_count - 1 WHERE name = old.tag;
      DELETE FROM tags WHERE name = old.tag AND post_count <= 0;
    END
  `.execute(db);
}

async function upTagCountPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE OR REPLACE FUNCTION perch_count_post_tags() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO tags (name, post_count) VALUES (NEW.tag, 1)
        ON CONFLICT (name) DO UPDATE SET post_count = tags.post_count + 1;
        RETURN NEW;
      END IF;
      UPDATE tags SET post_count = post_count - 1 WHERE name = OLD.tag;
      DELETE FROM tags WHERE name = OLD.tag AND post_count <= 0;
      RETURN OLD;
    END
    $$
  `.execute(db);
  await sql`DROP TRIGGER IF EXISTS post_tags_count ON post_tags`.execute(db);
  await sql`
    CREATE TRIGGER post_tags_count AFTER INSERT OR DELETE ON post_tags
    FOR EACH ROW EXECUTE FUNCTION perch_count_post_tags()
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`DROP INDEX IF EXISTS posts_search_idx`.execute(db);
    await sql`ALTER TABLE posts DROP COLUMN IF EXISTS search_vector`.execute(db);
    await sql`DROP TRIGGER IF EXISTS post_tags_count ON post_tags`.execute(db);
    await sql`DROP FUNCTION IF EXISTS perch_count_post_tags()`.execute(db);
  } else {
    for (const trigger of [
      'posts_search_insert',
      'posts_search_delete',
      'posts_search_update',
      'post_tags_count_insert',
      'post_tags_count_delete',
    ]) {
      await sql`DROP TRIGGER IF EXISTS ${sql.id(trigger)}`.execute(db);
    }
    await sql`DROP TABLE IF EXISTS posts_search`.execute(db);
  }
  for (const table of ['comment_mentions', 'post_mentions', 'comment_tags', 'post_tags', 'tags']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  for (const table of ['posts', 'comments']) {
    await db.schema.alterTable(table).dropColumn('entities').execute();
  }
}
