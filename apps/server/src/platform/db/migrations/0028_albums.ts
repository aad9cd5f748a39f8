import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect';

/**
 * Albums: a post holds up to 10 images, in order, each with its description, size and blurhash.
 *
 * - `posts.media`: the album as JSON (as `entities` and `preview_card` are kept), so that a post's
 *   row alone makes its view; null when the post has no image. `media_url` and `media_alt` stay
 *   the first image's, for what reads one image a post (feeds, notifications, older clients).
 * - `post_media`: one row per image of a post, so that releasing and sweeping uploads can ask
 *   whether any post still shows an image without reading every album.
 *
 * Both are filled from the posts that have an image, with its size and blurhash where an upload
 * recorded them.
 */
const BATCH = 1000;

interface OldPost {
  id: string;
  media_url: string;
  media_alt: string | null;
}

interface MediaFacts {
  url: string;
  width: number;
  height: number;
  blurhash: string | null;
}

/** The tables as this migration knows them, whatever later ones make of them. */
interface Tables {
  posts: OldPost & { media: string | null };
  media: MediaFacts;
  post_media: { post_id: string; position: number; url: string };
}

async function backfillBatch(db: Kysely<Tables>, posts: OldPost[]): Promise<void> {
  const urls = [...new Set(posts.map((post) => post.media_url))];
  const facts = await db
    .selectFrom('media')
    .select(['url', 'width', 'height', 'blurhash'])
    .where('url', 'in', urls)
    .execute();
  const byUrl = new Map(facts.map((fact) => [fact.url, fact]));
  for (const post of posts) {
    const fact = byUrl.get(post.media_url);
    const album = [
      {
        url: post.media_url,
        alt: post.media_alt,
        width: fact?.width ?? null,
        height: fact?.height ?? null,
        blurhash: fact?.blurhash ?? null,
      },
    ];
    await db
      .updateTable('posts')
      .set({ media: JSON.stringify(album) })
      .where('id', '=', post.id)
      .execute();
  }
  await db
    .insertInto('post_media')
    .values(posts.map((post) => ({ post_id: post.id, position: 0, url: post.media_url })))
    .execute();
}

async function backfill(db: Kysely<Tables>): Promise<void> {
  let after = '';
  for (;;) {
    const posts = await db
      .selectFrom('posts')
      .select(['id', 'media_url', 'media_alt'])
      .where('media_url', 'is not', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (posts.length === 0) return;
    // One transaction a batch on SQLite rather than one a statement (PostgreSQL's holds them).
    if (isPostgres(db)) await backfillBatch(db, posts);
    else await db.transaction().execute((trx) => backfillBatch(trx, posts));
    after = posts[posts.length - 1]?.id ?? after;
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').addColumn('media', 'text').execute();
  await db.schema
    .createTable('post_media')
    .addColumn('post_id', 'varchar(26)', (c) =>
      c.notNull().references('posts.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('url', 'varchar(300)', (c) => c.notNull())
    .addPrimaryKeyConstraint('post_media_pkey', ['post_id', 'position'])
    .execute();
  // Releasing and sweeping media ask whether any post shows an image.
  await db.schema.createIndex('post_media_url_idx').on('post_media').column('url').execute();
  await backfill(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('post_media').ifExists().execute();
  await db.schema.alterTable('posts').dropColumn('media').execute();
}
