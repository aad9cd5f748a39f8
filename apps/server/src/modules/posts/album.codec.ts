import type { PostMedia } from '@perch/contract';

// The album's column codec, apart from the rules of album.ts, so that the read model can read a
// row's album without importing the posts module's use cases.

/** A post's images in order, as its view shows them (see migration 0028). */
export type Album = PostMedia[];

/** What a post's row says of its images: the album, or the one image of a row written without. */
export interface AlbumColumns {
  media: string | null;
  media_url: string | null;
  media_alt: string | null;
}

export function decodeAlbum(json: string | null): Album {
  return json === null ? [] : (JSON.parse(json) as Album);
}

/** The album as the `posts.media` column keeps it: null for none. */
export function encodeAlbum(album: Album): string | null {
  return album.length === 0 ? null : JSON.stringify(album);
}

/** A post's album from its row; a row with an image but no album (written directly) shows it. */
export function albumOf(row: AlbumColumns): Album {
  if (row.media !== null) return decodeAlbum(row.media);
  if (row.media_url === null) return [];
  return [{ url: row.media_url, alt: row.media_alt, width: null, height: null, blurhash: null }];
}

/** The images of `before` that `after` no longer holds, in their order: an edit releases them. */
export function urlsMissingFrom(before: Album, after: Album): string[] {
  const kept = new Set(after.map((image) => image.url));
  return before.filter((image) => !kept.has(image.url)).map((image) => image.url);
}
