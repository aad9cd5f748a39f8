import type { Post, UserStub } from '@perch/contract';
import { decodeEntities } from '../../modules/discovery/entities.codec';
import { toIso } from '../../lib/time';
import { sqlBoolean } from '../../platform/db/dialect';
import { jsonOf, ownCopy, withJson } from '../../lib/serialized';
import type { PostCardRow, PostRecord } from '../../modules/posts/posts.repository';

type Reader = { id: string; username: string } | null;

export function toPost(row: PostCardRow, viewer: Reader): Post {
  const author: UserStub = {
    _id: row.user_id,
    id: row.user_id,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    avatarURL: row.avatar_url,
  };
  return presentPost(viewOf(row, author), row.liked, row.bookmarked, viewer);
}

type SharedPart = Omit<Post, 'likes' | 'commentCount' | 'likedByViewer' | 'bookmarkedByViewer'>;

/** What a card shows every reader, formatted and serialized once (the card cache caches it). */
export interface PostView {
  /** What lists read of the card: its order, its author, its counts. */
  row: Pick<PostRecord, 'id' | 'user_id' | 'created_at' | 'like_count' | 'comment_count'>;
  shared: SharedPart;
  /**
   * The post's JSON as UTF-8, as a reader who neither liked nor bookmarked it sees it. The parts
   * around the reader's own (their `likedBy` entry, their viewer states) are ranges of it.
   */
  json: Buffer;
  /** Where the `likedBy` array starts. */
  likedByAt: number;
  /** Where `likedByViewer`'s value starts. */
  flagsAt: number;
}

const NOBODY = Buffer.from('[]');
/** The JSON after `likedByViewer`'s key, one for each pair of viewer states. */
const tailOf = (liked: boolean, bookmarked: boolean) =>
  Buffer.from(`${liked},"bookmarkedByViewer":${bookmarked}}`);
const TAILS = {
  liked: { bookmarked: tailOf(true, true), not: tailOf(true, false) },
  not: { bookmarked: tailOf(false, true), not: tailOf(false, false) },
};
const UNFLAGGED = TAILS.not.not;

/**
 * The view of a post by `author` (a cached member summary, shared by their cards). Its JSON is written
 * field by field, in the order of `shared`'s keys, with the author's cached JSON: a list of cards the
 * cache lacks builds 21 views, and JSON.stringify walking each object again was most of their cost.
 */
export function viewOf(record: PostRecord, author: UserStub): PostView {
  const createdAt = toIso(record.created_at);
  const updatedAt = record.updated_at === record.created_at ? createdAt : toIso(record.updated_at);
  const entities = decodeEntities(record.entities);
  const shared: SharedPart = {
    _id: record.id,
    id: record.id,
    content: record.content,
    entities,
    mediaURL: record.media_url,
    mediaAlt: record.media_alt,
    username: author.username,
    userId: record.user_id,
    author,
    createdAt,
    updatedAt,
  };
  const id = JSON.stringify(record.id);
  // Joined, not concatenated: `+` would cache a tree of the pieces to walk again when encoding.
  const head = [
    '{"_id":',
    id,
    ',"id":',
    id,
    ',"content":',
    JSON.stringify(record.content),
    ',"entities":',
    entities.length === 0 ? '[]' : JSON.stringify(entities),
    ',"mediaURL":',
    JSON.stringify(record.media_url),
    ',"mediaAlt":',
    JSON.stringify(record.media_alt),
    ',"username":',
    JSON.stringify(author.username),
    ',"userId":',
    JSON.stringify(record.user_id),
    ',"author":',
    jsonOf(author) ?? 'null',
    ',"createdAt":"',
    createdAt,
    '","updatedAt":"',
    updatedAt,
    '","likes":{"likeCount":',
    JSON.stringify(record.like_count),
    ',"likedBy":',
  ].join('');
  const middle = `,"dislikedBy":[]},"commentCount":${JSON.stringify(record.comment_count)},"likedByViewer":`;
  const likedByAt = Buffer.byteLength(head);
  const flagsAt = likedByAt + NOBODY.length + Buffer.byteLength(middle);
  // From Node's shared pool, cheaper than memory of its own for the many views read only once.
  const json = Buffer.allocUnsafe(flagsAt + UNFLAGGED.length);
  json.write(head);
  NOBODY.copy(json, likedByAt);
  json.write(middle, likedByAt + NOBODY.length);
  UNFLAGGED.copy(json, flagsAt);
  return { row: record, shared, json, likedByAt, flagsAt };
}

/** The view to cache: its JSON copied out of the shared pool (see `ownCopy`). */
export function cachedView(view: PostView): PostView {
  return { ...view, json: ownCopy(view.json) };
}

// The reader's own likedBy entry, written once per reader rather than once per liked post.
let lastReader = { id: '', username: '' };
let lastReaderJson = NOBODY;
function likedByJsonOf(reader: NonNullable<Reader>): Buffer {
  if (reader.id !== lastReader.id || reader.username !== lastReader.username) {
    lastReader = { id: reader.id, username: reader.username };
    lastReaderJson = Buffer.from(
      JSON.stringify([{ _id: reader.id, id: reader.id, username: reader.username }]),
    );
  }
  return lastReaderJson;
}

/**
 * A card as the viewer sees it, given their viewer states ('liked', 'bookmarked') read apart; its JSON is
 * the view's bytes around the reader's part (see lib/serialized).
 */
export function presentPost(
  view: PostView,
  likedFlag: unknown,
  bookmarkedFlag: unknown,
  viewer: Reader,
): Post {
  const liked = viewer !== null && sqlBoolean(likedFlag);
  const bookmarked = viewer !== null && sqlBoolean(bookmarkedFlag);
  const likedBy = liked ? [{ _id: viewer.id, id: viewer.id, username: viewer.username }] : [];
  const shared = view.shared;
  // Written out rather than spread: spreading made each post ~100 times dearer to build.
  const post: Post = {
    _id: shared._id,
    id: shared.id,
    content: shared.content,
    entities: shared.entities,
    mediaURL: shared.mediaURL,
    mediaAlt: shared.mediaAlt,
    username: shared.username,
    userId: shared.userId,
    author: shared.author,
    createdAt: shared.createdAt,
    updatedAt: shared.updatedAt,
    likes: { likeCount: view.row.like_count, likedBy, dislikedBy: [] },
    commentCount: view.row.comment_count,
    likedByViewer: liked,
    bookmarkedByViewer: bookmarked,
  };
  if (!liked && !bookmarked) return withJson(post, [view.json]);
  const { json, likedByAt, flagsAt } = view;
  return withJson(post, [
    json.subarray(0, likedByAt),
    liked ? likedByJsonOf(viewer) : NOBODY,
    json.subarray(likedByAt + NOBODY.length, flagsAt),
    TAILS[liked ? 'liked' : 'not'][bookmarked ? 'bookmarked' : 'not'],
  ]);
}
