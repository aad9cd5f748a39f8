import { EMBEDDED_COMMENTS_MAX, type Comment } from '@perch/contract';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../platform/db/schema';
import { keptUntilChanged } from '../../lib/kept-until-changed';
import { withJson } from '../../lib/serialized';
import { toComment } from '../../modules/comments/comments.mapper';
import * as repo from '../../modules/comments/comments.repository';

type Db = Kysely<Database>;

/** A post and how many comments its view counts (which may lag a comment written since). */
export interface Commented {
  id: string;
  commentCount: number;
}

/**
 * Each post's first comments, oldest first, as `viewerId` sees them without the comments of
 * `hidden`: at most two queries for any number of posts, whatever their comments.
 */
export async function readFirstComments(
  reads: Db,
  posts: readonly Commented[],
  { viewerId, hidden }: { viewerId: string | null; hidden: readonly string[] },
): Promise<Map<string, repo.CommentViewRow[]>> {
  const idsWhere = (test: (count: number) => boolean) =>
    posts.filter((post) => test(post.commentCount)).map((post) => post.id);
  const few = idsWhere((count) => count > 0 && count <= EMBEDDED_COMMENTS_MAX);
  const many = idsWhere((count) => count > EMBEDDED_COMMENTS_MAX);
  const query = { viewerId, hidden, perPost: EMBEDDED_COMMENTS_MAX };
  const [all, limited] = await Promise.all([
    few.length > 0 ? repo.listAllCommentViews(reads, { ...query, postIds: few }) : [],
    many.length > 0 ? repo.listFirstCommentViewsByPost(reads, { ...query, postIds: many }) : [],
  ]);
  const rows = [...all, ...limited];
  rows.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
  const byPost = new Map<string, repo.CommentViewRow[]>();
  for (const row of rows) {
    const comments = byPost.get(row.post_id) ?? [];
    if (comments.length === 0) byPost.set(row.post_id, comments);
    // A count that lagged let a post read whole have more than are embedded.
    if (comments.length < EMBEDDED_COMMENTS_MAX) comments.push(row);
  }
  return byPost;
}

export interface FirstCommentsDeps {
  /** Where comments are read (a read-only connection on SQLite). */
  reads: Db;
  /** Comments cached, over all posts. */
  max: number;
}

/**
 * Each post's first comments as the original API embeds them in a post, as seen by a viewer who
 * hides no one and voted on none of them, each with its JSON, cached by post id: a page of popular
 * posts then reads no comment. A viewer's hidden members and own votes are applied on top (see
 * the comment presenter). Every change to what they show is an event (a comment added, edited,
 * deleted or voted on, a post deleted, a profile edited, an account deleted): the invalidation
 * table drops what the events name.
 */
export function createFirstComments({ reads, max }: FirstCommentsDeps) {
  const threads = keptUntilChanged(
    new LRUCache<string, readonly Comment[]>({
      maxSize: max,
      sizeCalculation: (comments) => Math.max(1, comments.length),
    }),
  );

  return {
    /** The first comments of each of `posts` with any (none for a post whose view counts none). */
    async of(posts: readonly Commented[]): Promise<Map<string, readonly Comment[]>> {
      const found = new Map<string, readonly Comment[]>();
      const missing: Commented[] = [];
      for (const post of posts) {
        if (post.commentCount === 0) continue;
        const comments = threads.get(post.id);
        if (comments) found.set(post.id, comments);
        else missing.push(post);
      }
      if (missing.length === 0) return found;
      const mark = threads.mark();
      const read = await readFirstComments(reads, missing, { viewerId: null, hidden: [] });
      for (const { id } of missing) {
        const comments = (read.get(id) ?? []).map((row) => {
          const comment = toComment(row, null);
          return withJson(comment, JSON.stringify(comment));
        });
        found.set(id, comments);
        threads.keep(mark, id, comments);
      }
      return found;
    },
    /** The post's comments changed. */
    forget: threads.forget,
    /** The member's name or picture changed: every thread showing a comment of theirs. */
    forgetAuthor: (userId: string): void => {
      threads.forgetWhere((comments) => comments.some((comment) => comment.userId === userId));
    },
    /** Every thread (an account went: their comments lost their author, their votes counts). */
    forgetAll: threads.forgetAll,
  };
}

export type FirstComments = ReturnType<typeof createFirstComments>;
