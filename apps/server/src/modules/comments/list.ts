import { ErrorMessages, type CommentPage, type PageQuery } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { decodeCursor, pageOf } from '../../lib/cursor';
import { notFound } from '../../lib/errors';
import type { CommentsServiceDeps } from './comments.deps';
import { toComment } from './comments.mapper';
import * as repo from './comments.repository';

/** A page of a post's comments, oldest first, those of members the viewer hides left out. */
export async function listComments(
  { db, posts, hidden }: Pick<CommentsServiceDeps, 'db' | 'posts' | 'hidden'>,
  postId: string,
  viewer: Viewer | null,
  query: PageQuery,
): Promise<CommentPage> {
  if (!(await posts.exists(postId, viewer))) throw notFound(ErrorMessages.postNotFound);
  const after = query.cursor ? decodeCursor(query.cursor, ['number', 'string'] as const) : null;
  const rows = await repo.listCommentViews(db, {
    postId,
    viewerId: viewer?.id ?? null,
    after,
    limit: query.limit,
    hidden: await hidden.hiddenFor(viewer?.id ?? null),
  });
  const { items, nextCursor } = pageOf(rows, query.limit, (row) => [row.created_at, row.id]);
  return { comments: items.map((row) => toComment(row, viewer)), nextCursor };
}
