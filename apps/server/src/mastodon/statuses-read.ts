import type { Comment, mastodon, Post } from '@perch/contract';
import type { FastifyInstance } from 'fastify';
import { decodeTime } from 'ulid';
import { encodeCursor } from '../lib/cursor';
import { AppError, notFound } from '../lib/errors';
import { MastodonMessages } from './auth';
import type { StatusRenderer } from './hydrate';
import { statusRefOf } from './statuses-ids';

const recordNotFound = () => notFound(MastodonMessages.notFound);

/** Perch's "not found" of a post or comment the reader cannot see, as Mastodon's words. */
export async function orNotFound<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) throw recordNotFound();
    throw error;
  }
}

/** The highest id of a moment: a cursor below it reads from that moment on (ids are ULIDs). */
const TOP_ID = 'Z'.repeat(26);

/** One comment of a post as the viewer sees it; 404 when it is gone or hidden from them. */
export async function commentOf(
  app: FastifyInstance,
  renderer: StatusRenderer,
  postId: string,
  commentId: string,
): Promise<Comment> {
  // Comments list oldest first after a (time, id) cursor: start just before the comment's time.
  const cursor = encodeCursor([decodeTime(commentId) - 1, TOP_ID]);
  const page = await orNotFound(
    app.services.comments.list(postId, renderer.viewer, { limit: 50, cursor }),
  );
  const comment = page.comments.find((candidate) => candidate._id === commentId);
  if (!comment) throw recordNotFound();
  return comment;
}

export const openPost = (app: FastifyInstance, renderer: StatusRenderer, postId: string) =>
  orNotFound(app.services.posts.open(postId, renderer.viewer));

/** A post as a status; 404 when it has no author the reader sees. */
export async function postStatus(renderer: StatusRenderer, post: Post): Promise<mastodon.Status> {
  const status = await renderer.status(post);
  if (!status) throw recordNotFound();
  return status;
}

/** The status an id names (a post, a reblog or a comment), as the viewer sees it. */
export async function statusById(
  app: FastifyInstance,
  renderer: StatusRenderer,
  id: string,
): Promise<mastodon.Status> {
  const ref = statusRefOf(id);
  if (ref.kind === 'comment') {
    const post = await openPost(app, renderer, ref.postId);
    const comment = await commentOf(app, renderer, ref.postId, ref.commentId);
    const [status] = await renderer.comments(post, [comment]);
    if (!status) throw recordNotFound();
    return status;
  }
  try {
    return await postStatus(renderer, await app.services.posts.open(ref.id, renderer.viewer));
  } catch (error) {
    if (!(error instanceof AppError && error.statusCode === 404)) throw error;
  }
  // Not a post: perhaps a repost, shown as its reblog.
  const repost = await renderer.repost({ id: ref.id });
  if (!repost) throw recordNotFound();
  const post = await openPost(app, renderer, repost.postId);
  const reblog = await renderer.reblog(post, repost);
  if (!reblog) throw recordNotFound();
  return reblog;
}
