import { sql, type Kysely } from 'kysely';
import { withRowLock } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

/** Texts that carry tags and mentions: posts and comments. */
export type EntityOwner = 'post' | 'comment';

const tables = {
  post: { tags: 'post_tags', mentions: 'post_mentions', key: 'post_id' },
  comment: { tags: 'comment_tags', mentions: 'comment_mentions', key: 'comment_id' },
} as const;

export interface TagUse {
  tag: string;
  ownerId: string;
  authorId: string;
  createdAt: number;
}

/** Inserted in tag order, so that concurrent writers take the tags' counter rows in one order. */
export async function insertTags(db: Db, owner: EntityOwner, uses: readonly TagUse[]) {
  if (uses.length === 0) return;
  const { tags, key } = tables[owner];
  const sorted = [...uses].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  await sql`insert into ${sql.table(tags)} (tag, ${sql.ref(key)}, author_id, created_at) values ${sql.join(
    sorted.map((use) => sql`(${use.tag}, ${use.ownerId}, ${use.authorId}, ${use.createdAt})`),
  )}`.execute(db);
}

export async function tagsOfOwner(db: Db, owner: EntityOwner, ownerId: string): Promise<string[]> {
  const { tags, key } = tables[owner];
  const { rows } = await sql<{ tag: string }>`select tag from ${sql.table(tags)}
    where ${sql.ref(key)} = ${ownerId}`.execute(db);
  return rows.map((row) => row.tag);
}

export async function deleteTag(
  db: Db,
  owner: EntityOwner,
  ownerId: string,
  tag: string,
): Promise<void> {
  const { tags, key } = tables[owner];
  await sql`delete from ${sql.table(tags)}
    where tag = ${tag} and ${sql.ref(key)} = ${ownerId}`.execute(db);
}

/** The distinct tags of the author's posts (any order). */
export async function tagsOfAuthorPosts(db: Db, authorId: string): Promise<string[]> {
  const { rows } = await sql<{ tag: string }>`select distinct tag from post_tags
    where post_id in (select id from posts where user_id = ${authorId})`.execute(db);
  return rows.map((row) => row.tag);
}

/**
 * Locks the tag's counter row until the transaction ends (PostgreSQL); `wait: false` fails at
 * once (55P03) when another writer holds it.
 */
export async function lockTag(db: Db, tag: string, wait: boolean): Promise<void> {
  const query = db.selectFrom('tags').select('name').where('name', '=', tag);
  await withRowLock(db, query, (q) =>
    wait ? q.forNoKeyUpdate() : q.forNoKeyUpdate().noWait(),
  ).execute();
}

/** Removes one tag from every post of the author (the tag's counter drops by as many). */
export async function deleteAuthorPostsTag(db: Db, authorId: string, tag: string): Promise<void> {
  await sql`delete from post_tags
    where tag = ${tag} and post_id in (select id from posts where user_id = ${authorId})`.execute(
    db,
  );
}

export async function insertMentions(
  db: Db,
  owner: EntityOwner,
  ownerId: string,
  userIds: readonly string[],
): Promise<void> {
  if (userIds.length === 0) return;
  const { mentions, key } = tables[owner];
  await sql`insert into ${sql.table(mentions)} (${sql.ref(key)}, user_id) values ${sql.join(
    userIds.map((userId) => sql`(${ownerId}, ${userId})`),
  )}`.execute(db);
}

export async function deleteMentions(db: Db, owner: EntityOwner, ownerId: string): Promise<void> {
  const { mentions, key } = tables[owner];
  await sql`delete from ${sql.table(mentions)} where ${sql.ref(key)} = ${ownerId}`.execute(db);
}

export async function mentionedIds(db: Db, owner: EntityOwner, ownerId: string): Promise<string[]> {
  const { mentions, key } = tables[owner];
  const { rows } = await sql<{ user_id: string }>`select user_id from ${sql.table(
    mentions,
  )} where ${sql.ref(key)} = ${ownerId}`.execute(db);
  return rows.map((row) => row.user_id);
}
