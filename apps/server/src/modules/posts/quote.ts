import { QuoteErrors } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { forbidden, notFound } from '../../lib/errors';
import type { Db, PostsDeps } from './posts.deps';
import * as repo from './posts.repository';

/** The post a new post quotes, and its author (as `post.created` names them). */
export interface QuoteTarget {
  postId: string;
  authorId: string;
}

/**
 * The post the viewer's new post quotes, held in the transaction (see holdQuotedPost): 404 when it
 * is gone, 403 across a block either way (asked of the database, as every write that must not
 * cross a block does). Null when the post quotes nothing.
 */
export async function quoteTarget(
  { hidden }: Pick<PostsDeps, 'hidden'>,
  trx: Db,
  quoteId: string | null | undefined,
  viewer: Viewer,
): Promise<QuoteTarget | null> {
  if (quoteId === null || quoteId === undefined) return null;
  const quoted = await repo.holdQuotedPost(trx, quoteId);
  if (!quoted) throw notFound(QuoteErrors.notFound);
  if (await hidden.isBlockedEitherWay(trx, viewer.id, quoted.user_id)) {
    throw forbidden(QuoteErrors.blocked);
  }
  return { postId: quoted.id, authorId: quoted.user_id };
}
