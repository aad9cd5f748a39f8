import {
  postSchema,
  type Post,
  type PostQuote,
  type PreviewCard,
  type UserStub,
} from '@perch/contract';
import type { z } from 'zod';
import { decodeEntities } from '../../modules/discovery/entities.codec';
import { toIso } from '../../lib/time';
import { sqlBoolean } from '../../platform/db/dialect';
import { compileJson, joinedObjects, ownCopy, withJson } from '../../lib/serialized';
import type { PostCardRow, PostRecord } from '../../modules/posts/posts.repository';
import { decodePoll, presentPoll, type PollData } from './poll-view';
import { albumOf } from '../../modules/posts/album.codec';

type Reader = { id: string; username: string } | null;

export function toPost(
  row: PostCardRow,
  viewer: Reader,
  extras: Pick<Marks, 'ownVotes' | 'quote'> = {},
): Post {
  const author: UserStub = {
    _id: row.user_id,
    id: row.user_id,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    avatarURL: row.avatar_url,
  };
  return presentPost(
    viewOf(row, author),
    { liked: row.liked, bookmarked: row.bookmarked, reposted: row.reposted, ...extras },
    viewer,
  );
}

/** The fields every reader sees alike, serialized once with the card. */
const sharedPartSchema = postSchema.omit({
  repostedBy: true,
  likes: true,
  commentCount: true,
  repostCount: true,
  comments: true,
  likedByViewer: true,
  bookmarkedByViewer: true,
  repostedByViewer: true,
  poll: true,
  quote: true,
});
/** The counts and the viewer's states, the part written for each reader who marked it. */
const viewerPartSchema = postSchema.pick({
  likes: true,
  commentCount: true,
  repostCount: true,
  likedByViewer: true,
  bookmarkedByViewer: true,
  repostedByViewer: true,
  poll: true,
  // Resolved for each reader (see quotes.ts): the cached bytes hold null.
  quote: true,
});
type SharedPart = z.infer<typeof sharedPartSchema>;
type ViewerPart = z.infer<typeof viewerPartSchema>;

const sharedJson = compileJson(sharedPartSchema);
const viewerJson = compileJson(viewerPartSchema);

/** What a card shows every reader, formatted and serialized once (the card cache caches it). */
export interface PostView {
  /** What lists read of the card: its order, its author, its counts. */
  row: Pick<
    PostRecord,
    'id' | 'user_id' | 'created_at' | 'like_count' | 'comment_count' | 'repost_count' | 'quote_id'
  >;
  shared: SharedPart;
  /**
   * The post's JSON as UTF-8, as a reader who neither liked nor bookmarked it sees it: the shared
   * part's JSON joined with the viewer part's (see `joinedObjects`).
   */
  json: Buffer;
  /** Where the viewer part's fields start: the bytes before are the same for every reader. */
  viewerPartAt: number;
  /** The post's poll, shown in the viewer part for each reader (see poll-view.ts); null: none. */
  poll: PollData | null;
}

/** The viewer part of a reader who neither liked nor bookmarked the post. */
function unflaggedPart(record: PostRecord, poll: PollData | null): ViewerPart {
  return {
    likes: { likeCount: record.like_count, likedBy: [], dislikedBy: [] },
    commentCount: record.comment_count,
    repostCount: record.repost_count,
    likedByViewer: false,
    bookmarkedByViewer: false,
    repostedByViewer: false,
    poll: poll === null ? null : presentPoll(poll, record.user_id, null, null),
    quote: null,
  };
}

/**
 * The view of a post by `author` (a cached member summary, shared by their cards). Its JSON is
 * written by serializers compiled from the contract's post schema, split into the shared part and
 * the viewer part.
 */
export function viewOf(record: PostRecord, author: UserStub): PostView {
  const createdAt = toIso(record.created_at);
  const updatedAt = record.updated_at === record.created_at ? createdAt : toIso(record.updated_at);
  const shared: SharedPart = {
    _id: record.id,
    id: record.id,
    content: record.content,
    entities: decodeEntities(record.entities),
    mediaURL: record.media_url,
    mediaAlt: record.media_alt,
    media: albumOf(record),
    contentWarning: record.content_warning,
    sensitive: sqlBoolean(record.sensitive),
    card: decodePreviewCard(record.preview_card),
    username: author.username,
    userId: record.user_id,
    author,
    createdAt,
    updatedAt,
    pinned: sqlBoolean(record.pinned),
  };
  const poll = decodePoll(record.poll);
  const viewerPart = viewerJson(unflaggedPart(record, poll));
  const { json, secondAt } = joinedObjects(sharedJson(shared), viewerPart);
  return { row: record, shared, json, viewerPartAt: secondAt, poll };
}

/**
 * A post's preview card from its JSON column, written by the card worker from the contract's
 * schema; null for none.
 */
function decodePreviewCard(json: string | null): PreviewCard | null {
  return json === null ? null : (JSON.parse(json) as PreviewCard);
}

/** The view to cache: its JSON copied out of the shared pool (see `ownCopy`). */
export function cachedView(view: PostView): PostView {
  return { ...view, json: ownCopy(view.json) };
}

/** The viewer's marks of a post as read (flags: 0/1 on SQLite, booleans on PostgreSQL). */
export interface Marks {
  liked: unknown;
  bookmarked: unknown;
  reposted: unknown;
  /** The options the reader chose in the post's poll; null (or absent) when they did not vote. */
  ownVotes?: readonly number[] | null;
  /** The post it quotes as the reader may see it (see quotes.ts); null (or absent) for none. */
  quote?: PostQuote | null;
}

export const NO_MARKS: Marks = { liked: false, bookmarked: false, reposted: false };

/**
 * A card as the viewer sees it, given their marks read apart; its JSON is the view's shared bytes
 * followed by the viewer part written for them (see lib/serialized).
 */
export function presentPost(view: PostView, marks: Marks, viewer: Reader): Post {
  const liked = viewer !== null && sqlBoolean(marks.liked);
  const bookmarked = viewer !== null && sqlBoolean(marks.bookmarked);
  const reposted = viewer !== null && sqlBoolean(marks.reposted);
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
    media: shared.media,
    contentWarning: shared.contentWarning,
    sensitive: shared.sensitive,
    card: shared.card,
    username: shared.username,
    userId: shared.userId,
    author: shared.author,
    createdAt: shared.createdAt,
    updatedAt: shared.updatedAt,
    pinned: shared.pinned,
    likes: { likeCount: view.row.like_count, likedBy, dislikedBy: [] },
    commentCount: view.row.comment_count,
    repostCount: view.row.repost_count,
    likedByViewer: liked,
    bookmarkedByViewer: bookmarked,
    repostedByViewer: reposted,
    // Depends on the reader and the time: a post with a poll writes its viewer part each time.
    poll:
      view.poll === null
        ? null
        : presentPoll(view.poll, shared.userId, viewer?.id ?? null, marks.ownVotes ?? null),
    quote: marks.quote ?? null,
  };
  // A quote is the reader's own (see quotes.ts): it is written for each reader, as a mark is.
  const plain = view.poll === null && view.row.quote_id === null;
  if (!liked && !bookmarked && !reposted && plain) return withJson(post, [view.json]);
  // The compiled serializer reads only the viewer part's fields of the post.
  return withJson(post, [view.json.subarray(0, view.viewerPartAt), viewerJson(post).slice(1)]);
}
