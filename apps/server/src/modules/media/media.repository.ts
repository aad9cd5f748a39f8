import type { Kysely } from 'kysely';
import { AdvisoryLockSpace, lockForTransaction } from '../../platform/db/dialect';
import type { Database, MediaRow } from '../../platform/db/schema';

type Db = Kysely<Database>;

/**
 * Serialises work on one stored image between processes sharing a PostgreSQL database: uploads
 * and "may this member use it" checks take the lock shared, releasing and sweeping take it
 * exclusively. Held until the surrounding transaction ends.
 */
export function lockMediaUrl(db: Db, url: string, mode: 'shared' | 'exclusive'): Promise<void> {
  return lockForTransaction(db, AdvisoryLockSpace.media, url, mode);
}

/** Runs fn in a transaction, or in the caller's when db already is one. */
export function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/** Records an upload; a member uploading the same bytes again refreshes the row's time. */
export async function upsertMedia(db: Db, row: MediaRow): Promise<void> {
  await db
    .insertInto('media')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['url', 'user_id']).doUpdateSet({
        created_at: (eb) => eb.ref('excluded.created_at'),
        // An upload recorded before blurhashes were computed gets one now.
        blurhash: (eb) => eb.ref('excluded.blurhash'),
      }),
    )
    .execute();
}

export function findMediaOf(db: Db, userId: string, url: string): Promise<MediaRow | undefined> {
  return db
    .selectFrom('media')
    .selectAll()
    .where('url', '=', url)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function hasMediaRow(db: Db, url: string, createdSince?: number): Promise<boolean> {
  let query = db.selectFrom('media').select('id').where('url', '=', url);
  if (createdSince !== undefined) query = query.where('created_at', '>=', createdSince);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** Whether any post, profile or link preview card shows the image. */
export async function isMediaReferenced(db: Db, url: string): Promise<boolean> {
  // Every image of every post's album has its row (migration 0028).
  const post = await db
    .selectFrom('post_media')
    .select('post_id')
    .where('url', '=', url)
    .limit(1)
    .executeTakeFirst();
  if (post) return true;
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('avatar_url', '=', url)
    .limit(1)
    .executeTakeFirst();
  if (user) return true;
  // A card's image is kept for as long as its card: posts linking to the page show it.
  const card = await db
    .selectFrom('preview_cards')
    .select('url')
    .where('image_url', '=', url)
    .limit(1)
    .executeTakeFirst();
  return card !== undefined;
}

export async function deleteMediaRows(db: Db, url: string): Promise<number> {
  const result = await db.deleteFrom('media').where('url', '=', url).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Images nobody shows whose every upload is older than the cutoff, oldest first. The answer is a
 * hint: each one is checked again under its lock before anything is removed.
 */
export async function findOrphanMediaUrls(
  db: Db,
  uploadedBefore: number,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('media as m')
    .select('m.url')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('post_media as pm').select('pm.post_id').whereRef('pm.url', '=', 'm.url'),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('users as u').select('u.id').whereRef('u.avatar_url', '=', 'm.url'),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('preview_cards as c').select('c.url').whereRef('c.image_url', '=', 'm.url'),
        ),
      ),
    )
    .groupBy('m.url')
    .having((eb) => eb.fn.max('m.created_at'), '<', uploadedBefore)
    .orderBy((eb) => eb.fn.max('m.created_at'))
    .limit(limit)
    .execute();
  return rows.map((row) => row.url);
}

/** What uploads recorded of each of `urls` (one row per uploader: all say the same). */
export function mediaSizes(
  db: Db,
  urls: readonly string[],
): Promise<{ url: string; width: number; height: number; mime: string; bytes: number }[]> {
  return db
    .selectFrom('media')
    .select(['url', 'width', 'height', 'mime', 'bytes'])
    .where('url', 'in', urls)
    .execute();
}

/** The size and blurhash uploads recorded of each of `urls` (any uploader's: all say the same). */
export function mediaFacts(
  db: Db,
  urls: readonly string[],
): Promise<{ url: string; width: number; height: number; blurhash: string | null }[]> {
  return db
    .selectFrom('media')
    .select(['url', 'width', 'height', 'blurhash'])
    .where('url', 'in', urls)
    .execute();
}
