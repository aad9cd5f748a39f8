import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

export interface StoredImage {
  url: string;
  mime: string;
  bytes: number;
}

/**
 * The type and size the upload records give each image, so that a feed need not open the files;
 * an image no upload records (the demo images) is left out.
 */
export async function storedImages(db: Db, urls: readonly string[]): Promise<StoredImage[]> {
  if (urls.length === 0) return [];
  // One row per member who uploaded the same bytes: all say the same.
  return db
    .selectFrom('media')
    .select(['url', 'mime', 'bytes'])
    .where('url', 'in', urls)
    .groupBy(['url', 'mime', 'bytes'])
    .execute();
}
