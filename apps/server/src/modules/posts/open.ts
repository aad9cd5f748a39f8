import { ErrorMessages, type Post } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { notFound } from '../../lib/errors';
import { authorColumns } from '../users/users.mapper';
import type { Db, PostsDeps } from './posts.deps';
import * as repo from './posts.repository';

/** The post as the viewer sees it, read from the database (`within` a transaction if given). */
export async function readPost(
  { reads, presenter }: Pick<PostsDeps, 'reads' | 'presenter'>,
  postId: string,
  viewer: Viewer | null,
  within: Db = reads,
): Promise<Post> {
  const row = await repo.findPostCard(within, postId, viewer?.id ?? null);
  if (!row) throw notFound(ErrorMessages.postNotFound);
  return presenter.fromRow(row, viewer, within);
}

/**
 * A post by direct link: 404 across a block; a muted author's post still opens (the viewer asked
 * for it).
 */
export async function openPost(
  deps: Pick<PostsDeps, 'reads' | 'presenter' | 'hidden'>,
  postId: string,
  viewer: Viewer | null,
): Promise<Post> {
  const post = await readPost(deps, postId, viewer);
  if (await deps.hidden.separated(viewer?.id ?? null, post.author._id)) {
    throw notFound(ErrorMessages.postNotFound);
  }
  return post;
}

/** Whether the post exists for the viewer (for lists under it): not across a block. */
export async function postExists(
  { db, hidden }: Pick<PostsDeps, 'db' | 'hidden'>,
  postId: string,
  viewer: Viewer | null = null,
): Promise<boolean> {
  const post = await repo.findPostOwner(db, postId);
  return post !== undefined && !(await hidden.separated(viewer?.id ?? null, post.user_id));
}

/**
 * The post, locked for a change in this transaction (see lockPostForChange), with the viewer's
 * state the answer needs; 404 if gone, or if a block stands between the viewer and its author
 * (asked in the transaction: no like, comment, vote or bookmark crosses a block). Its author is
 * their cached summary: joining the members' table read a cold page of it for a third of the
 * row's cost (see docs/decisions).
 */
export async function lockedPost(
  { hidden, authors }: Pick<PostsDeps, 'hidden' | 'authors'>,
  trx: Db,
  postId: string,
  viewer: Viewer,
  state: repo.MarkRead,
): Promise<repo.PostCardRow> {
  const post = await repo.lockPostForChange(trx, postId, viewer.id, state);
  if (!post || (await hidden.isBlockedEitherWay(trx, viewer.id, post.user_id))) {
    throw notFound(ErrorMessages.postNotFound);
  }
  const [author] = await authors.of([post.user_id], trx);
  if (!author) throw notFound(ErrorMessages.postNotFound);
  return { ...post, ...authorColumns(author) };
}
