import type { Kysely } from 'kysely';
import { compiledCommand } from '../../platform/db/compiled';
import { sqlBoolean } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';
import type { PostRecord } from './posts.repository';

type Db = Kysely<Database>;

// The posts module's writes: a post's rows and the counters beside it. Those on every new post
// and comment are compiled once (see db/compiled.ts); edits and deletes are rarer and built per
// call. Reads, and the card locked for a change, are in posts.repository.ts.
const postInsert = compiledCommand(
  (
    db: Db,
    id: string,
    userId: string,
    content: string,
    entities: string | null,
    mediaUrl: string | null,
    mediaAlt: string | null,
    contentWarning: string | null,
    sensitive: number,
    createdAt: number,
    media: string | null,
    quoteId: string | null,
  ) =>
    db.insertInto('posts').values({
      id,
      user_id: userId,
      content,
      entities,
      media_url: mediaUrl,
      media_alt: mediaAlt,
      content_warning: contentWarning,
      sensitive,
      created_at: createdAt,
      updated_at: createdAt,
      media,
      quote_id: quoteId,
    }),
);

/** A post as it is first written: no likes or comments yet, never edited, not pinned. */
export type NewPost = Omit<
  PostRecord,
  | 'like_count'
  | 'comment_count'
  | 'repost_count'
  | 'updated_at'
  | 'pinned'
  | 'preview_card'
  | 'poll'
>;

/** The record of a post as insertPost writes it. */
export const writtenRecord = (post: NewPost): PostRecord => ({
  ...post,
  like_count: 0,
  comment_count: 0,
  repost_count: 0,
  updated_at: post.created_at,
  pinned: false,
  // Fetched after the post is written, by the card worker (modules/preview-cards).
  preview_card: null,
  // Written apart, after the post, by modules/polls when the post has one.
  poll: null,
});

export async function insertPost(db: Db, post: NewPost): Promise<void> {
  await postInsert(
    db,
    post.id,
    post.user_id,
    post.content,
    post.entities,
    post.media_url,
    post.media_alt,
    post.content_warning,
    sqlBoolean(post.sensitive) ? 1 : 0,
    post.created_at,
    post.media,
    post.quote_id,
  );
}

/** The rows that tell media release which images the post shows (see migration 0028). */
export async function setPostMedia(
  db: Db,
  postId: string,
  urls: readonly string[],
  replacing: boolean,
): Promise<void> {
  if (replacing) await db.deleteFrom('post_media').where('post_id', '=', postId).execute();
  if (urls.length === 0) return;
  await db
    .insertInto('post_media')
    .values(urls.map((url, position) => ({ post_id: postId, position, url })))
    .execute();
}

export async function updatePost(
  db: Db,
  postId: string,
  changes: {
    content: string;
    entities: string | null;
    media_url: string | null;
    media_alt: string | null;
    media: string | null;
    content_warning: string | null;
    sensitive: number;
    updated_at: number;
    /** Set to null when the edit changed the text's first link; left as it was when absent. */
    preview_card?: null;
  },
): Promise<void> {
  await db.updateTable('posts').set(changes).where('id', '=', postId).execute();
}

/** Sets the preview card the post shows (its JSON), or none; the post's edit time stays. */
export async function setPreviewCard(db: Db, postId: string, card: string | null): Promise<void> {
  await db.updateTable('posts').set({ preview_card: card }).where('id', '=', postId).execute();
}

/** Likes, comments, votes and bookmarks go with it (foreign keys cascade). */
export async function deletePost(db: Db, postId: string): Promise<boolean> {
  const result = await db.deleteFrom('posts').where('id', '=', postId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

const postsCountChange = compiledCommand((db: Db, userId: string, delta: number) =>
  db
    .updateTable('users')
    .set((eb) => ({ posts_count: eb('posts_count', '+', delta) }))
    .where('id', '=', userId),
);

export async function adjustPostsCount(db: Db, userId: string, delta: 1 | -1): Promise<void> {
  await postsCountChange(db, userId, delta);
}

const commentCountChange = compiledCommand((db: Db, postId: string, delta: number) =>
  db
    .updateTable('posts')
    .set((eb) => ({ comment_count: eb('comment_count', '+', delta) }))
    .where('id', '=', postId),
);

export async function adjustCommentCount(db: Db, postId: string, delta: 1 | -1): Promise<void> {
  await commentCountChange(db, postId, delta);
}
