import type { Kysely } from 'kysely';
import type { Viewer } from '../../lib/viewer';
import type { Database } from '../../platform/db/schema';
import { readMarkers, saveMarker, type MarkerRow } from './markers.repository';

export type { MarkerRow } from './markers.repository';

export interface MarkersServiceDeps {
  db: Kysely<Database>;
}

/**
 * Where each member stopped reading a timeline (Home, notifications), as apps save it to carry
 * the position from one device to another. `version` counts the saves.
 */
export function createMarkersService({ db }: MarkersServiceDeps) {
  return {
    read: (viewer: Viewer, timelines: readonly string[]): Promise<MarkerRow[]> =>
      readMarkers(db, viewer.id, timelines),
    /** Saves each position given, by timeline, at once; answers the markers as they are now. */
    async save(viewer: Viewer, positions: ReadonlyMap<string, string>): Promise<MarkerRow[]> {
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        for (const [timeline, lastReadId] of positions) {
          await saveMarker(trx, viewer.id, timeline, lastReadId, now);
        }
      });
      return readMarkers(db, viewer.id, [...positions.keys()]);
    },
  };
}

export type MarkersService = ReturnType<typeof createMarkersService>;
