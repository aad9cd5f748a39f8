import { PostMediaMessages, type PostInput, type PostMediaItemInput } from '@perch/contract';
import { badRequest } from '../../lib/errors';
import type { Db, PostsDeps } from './posts.deps';
import { altTextOf } from './posts.deps';
import type { Album } from './album.codec';

export {
  albumOf,
  decodeAlbum,
  encodeAlbum,
  urlsMissingFrom,
  type Album,
  type AlbumColumns,
} from './album.codec';

interface WantedImage {
  url: string;
  /** undefined: the description it had in the post, if it was there. */
  alt: string | null | undefined;
}

/** Whether `media` is the album as the post holds it: sent back as it was read. */
function sameAsCurrent(media: readonly PostMediaItemInput[], current: Album): boolean {
  return (
    media.length === current.length &&
    media.every(
      (image, index) =>
        image.url === current[index]?.url && (image.alt ?? null) === current[index].alt,
    )
  );
}

/** What the input asks for: a list of images, or undefined to keep the post's as they are. */
function wantedImages(input: PostInput, current: Album): WantedImage[] | undefined {
  const { mediaURL, mediaAlt } = input;
  // A client that knows only mediaURL sends the album back untouched, perhaps with a new mediaURL.
  const media = input.media && sameAsCurrent(input.media, current) ? undefined : input.media;
  if (media !== undefined && media !== null && media.length > 0) {
    // A client that sends both must mean the same first image.
    if (mediaURL !== undefined && mediaURL !== media[0]?.url) {
      throw badRequest(PostMediaMessages.conflicting);
    }
    return media.map((image, index) => ({
      url: image.url,
      alt: image.alt === undefined && index === 0 ? mediaAlt : image.alt,
    }));
  }
  if (media !== undefined) {
    if (mediaURL !== undefined && mediaURL !== null) {
      throw badRequest(PostMediaMessages.conflicting);
    }
    return [];
  }
  if (mediaURL === undefined) {
    if (mediaAlt === undefined || current.length === 0) return undefined;
    return current.map((image, index) => ({
      url: image.url,
      alt: index === 0 ? mediaAlt : image.alt,
    }));
  }
  if (mediaURL === null) return [];
  // A client that knows one image a post sends the first back as it read it: the album stays.
  if (mediaURL === current[0]?.url) {
    return current.map((image, index) => ({
      url: image.url,
      alt: index === 0 ? mediaAlt : image.alt,
    }));
  }
  return [{ url: mediaURL, alt: mediaAlt }];
}

/**
 * The album the create or edit body asks for (`media`, or the single `mediaURL` and `mediaAlt` of
 * older clients), or undefined when it leaves the post's images as they are. Every image the post
 * did not hold yet must be an upload of the viewer's (checked under its lock, in `trx`); a kept
 * image keeps its description unless the body gives another.
 */
export async function requestedAlbum(
  deps: Pick<PostsDeps, 'media'>,
  trx: Db,
  viewerId: string,
  input: PostInput,
  current: Album = [],
): Promise<Album | undefined> {
  const wanted = wantedImages(input, current);
  if (wanted === undefined) return undefined;
  const before = new Map(current.map((image) => [image.url, image]));
  const added = wanted.filter((image) => !before.has(image.url)).map((image) => image.url);
  for (const url of added) await deps.media.assertUsable(trx, viewerId, url);
  const facts = await deps.media.factsOf(trx, added);
  return wanted.map(({ url, alt }) => {
    const kept = before.get(url);
    const fact = facts.get(url);
    return {
      url,
      alt: alt === undefined ? (kept?.alt ?? null) : altTextOf(alt),
      width: kept ? kept.width : (fact?.width ?? null),
      height: kept ? kept.height : (fact?.height ?? null),
      blurhash: kept ? kept.blurhash : (fact?.blurhash ?? null),
    };
  });
}
