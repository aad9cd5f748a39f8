import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

export interface MarkerRow {
  timeline: string;
  last_read_id: string;
  version: number;
  updated_at: number;
}

export function readMarkers(
  db: Db,
  userId: string,
  timelines: readonly string[],
): Promise<MarkerRow[]> {
  if (timelines.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('markers')
    .select(['timeline', 'last_read_id', 'version', 'updated_at'])
    .where('user_id', '=', userId)
    .where('timeline', 'in', timelines)
    .execute();
}

/** Saves the position, counting the save in `version` (1 for the first). */
export async function saveMarker(
  db: Db,
  userId: string,
  timeline: string,
  lastReadId: string,
  at: number,
): Promise<void> {
  await db
    .insertInto('markers')
    .values({ user_id: userId, timeline, last_read_id: lastReadId, version: 1, updated_at: at })
    .onConflict((oc) =>
      oc.columns(['user_id', 'timeline']).doUpdateSet((eb) => ({
        last_read_id: lastReadId,
        version: eb('markers.version', '+', 1),
        updated_at: at,
      })),
    )
    .execute();
}
