import type { Kysely, Selectable } from 'kysely';
import type { Database, PreviewCardsTable } from '../../platform/db/schema';

type Db = Kysely<Database>;

export type PreviewCardRow = Selectable<PreviewCardsTable>;

/** A post waiting for its link's card, as the worker claims it. */
export interface CardFetchRow {
  post_id: string;
  url: string;
  claimed_until: number;
}

export function findCard(db: Db, url: string): Promise<PreviewCardRow | undefined> {
  return db.selectFrom('preview_cards').selectAll().where('url', '=', url).executeTakeFirst();
}

/** Records what a fetch of `row.url` gave, replacing what an earlier fetch gave. */
export async function saveCard(db: Db, row: PreviewCardRow): Promise<void> {
  const { url: _url, ...fields } = row;
  await db
    .insertInto('preview_cards')
    .values(row)
    .onConflict((oc) => oc.column('url').doUpdateSet(fields))
    .execute();
}

/** Puts the post in the queue for `url`'s card, in place of what it waited for before. */
export async function queueFetch(db: Db, postId: string, url: string, now: number): Promise<void> {
  await db
    .insertInto('preview_card_fetches')
    .values({ post_id: postId, url, queued_at: now, claimed_until: 0 })
    .onConflict((oc) => oc.column('post_id').doUpdateSet({ url, queued_at: now, claimed_until: 0 }))
    .execute();
}

/** Takes the post out of the queue; with `url`, only if it still waits for that link's card. */
export async function dropFetch(db: Db, postId: string, url?: string): Promise<void> {
  let query = db.deleteFrom('preview_card_fetches').where('post_id', '=', postId);
  if (url !== undefined) query = query.where('url', '=', url);
  await query.execute();
}

/** The oldest posts waiting that no worker holds now: candidates, each claimed apart. */
export function unclaimedFetches(db: Db, now: number, limit: number): Promise<CardFetchRow[]> {
  return db
    .selectFrom('preview_card_fetches')
    .select(['post_id', 'url', 'claimed_until'])
    .where('claimed_until', '<', now)
    .orderBy('queued_at')
    .limit(limit)
    .execute();
}

/**
 * Claims a waiting post until `until`, if no other worker (another process) claimed it since it
 * was read: answers whether this one has it.
 */
export async function claimFetch(db: Db, row: CardFetchRow, until: number): Promise<boolean> {
  const result = await db
    .updateTable('preview_card_fetches')
    .set({ claimed_until: until })
    .where('post_id', '=', row.post_id)
    .where('url', '=', row.url)
    .where('claimed_until', '=', row.claimed_until)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
