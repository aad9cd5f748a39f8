import { findEntities, mentionedNamesOf, tagsOf, type Entity } from '@perch/contract';
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

const BATCH = 2000;

interface Text {
  id: string;
  author_id: string | null;
  text: string;
  created_at: number | string;
}

/**
 * Finds the tags and mentions of the posts and comments written before they were recognised (or
 * written directly, as the demo seed does), in batches (each its own transaction on SQLite, where
 * migrations run outside one). Only texts with a `#` or `@` are read again; texts already done
 * are done again to the same result. Nobody is notified of old mentions.
 */
export async function backfillEntities(db: Kysely<unknown>): Promise<void> {
  for (const owner of ['post', 'comment'] as const) {
    let after = '';
    for (;;) {
      const batch = await textsAfter(db, owner, after);
      if (batch.length === 0) break;
      after = batch[batch.length - 1]?.id ?? after;
      if (isPostgres(db)) await writeBatch(db, owner, batch);
      else await db.transaction().execute((trx) => writeBatch(trx, owner, batch));
      if (batch.length < BATCH) break;
    }
  }
}

async function textsAfter(
  db: Kysely<unknown>,
  owner: 'post' | 'comment',
  after: string,
): Promise<Text[]> {
  const { rows } =
    owner === 'post'
      ? await sql<Text>`select id, user_id as author_id, content as text, created_at from posts
          where id > ${after} and (content like '%#%' or content like '%@%')
          order by id limit ${BATCH}`.execute(db)
      : await sql<Text>`select id, user_id as author_id, text, created_at from comments
          where id > ${after} and (text like '%#%' or text like '%@%')
          order by id limit ${BATCH}`.execute(db);
  return rows;
}

async function writeBatch(
  db: Kysely<unknown>,
  owner: 'post' | 'comment',
  batch: readonly Text[],
): Promise<void> {
  const found = batch.map((row) => ({ row, entities: findEntities(row.text) }));
  const names = [...new Set(found.flatMap(({ entities }) => mentionedNamesOf(entities)))];
  const members = new Map<string, { id: string; username: string }>();
  for (let i = 0; i < names.length; i += 500) {
    const { rows } = await sql<{ id: string; username: string }>`
      select id, username from users
      where lower(username) in (${sql.join(names.slice(i, i + 500))})`.execute(db);
    for (const member of rows) members.set(member.username.toLowerCase(), member);
  }
  const table = owner === 'post' ? 'posts' : 'comments';
  const key = `${owner}_id`;
  for (const { row, entities } of found) {
    const resolved = entities.flatMap((entity): Entity[] => {
      if (entity.type === 'tag') return [entity];
      const member = members.get(entity.username.toLowerCase());
      return member ? [{ ...entity, username: member.username, userId: member.id }] : [];
    });
    if (resolved.length === 0) continue;
    await sql`update ${sql.table(table)} set entities = ${JSON.stringify(resolved)}
      where id = ${row.id}`.execute(db);
    for (const tag of tagsOf(resolved)) {
      await sql`insert into ${sql.table(`${owner}_tags`)} (tag, ${sql.ref(key)}, author_id, created_at)
        values (${tag}, ${row.id}, ${row.author_id ?? ''}, ${Number(row.created_at)})
        on conflict do nothing`.execute(db);
    }
    const mentioned = new Set(
      resolved.flatMap((entity) => (entity.type === 'mention' ? [entity.userId] : [])),
    );
    for (const userId of mentioned) {
      await sql`insert into ${sql.table(`${owner}_mentions`)} (${sql.ref(key)}, user_id)
        values (${row.id}, ${userId}) on conflict do nothing`.execute(db);
    }
  }
}
