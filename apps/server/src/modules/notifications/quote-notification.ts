import type { PublishedEvent } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { HiddenMembers } from '../safety/hidden-members';
import { newId } from '../../lib/ids';
import * as repo from './notifications.repository';

type Db = Kysely<Database>;
type CreatedEvent = Extract<PublishedEvent, { type: 'post.created' }>;

/** The group of one quote's notification: each quote is shown on its own. */
export const quoteGroupKey = (postId: string): string => `quote:${postId}`;

/**
 * Tells the quoted post's author of a new quote, once: not their own quote, not across a block or
 * from a member they muted, not when the quote or the quoted post is gone meanwhile. Answers who
 * was told, or null.
 */
export async function applyQuote(
  trx: Db,
  event: CreatedEvent,
  safety: Pick<HiddenMembers, 'keepsFrom'>,
): Promise<string | null> {
  const { postId, authorId, quote } = event.payload;
  if (!quote || quote.authorId === authorId) return null;
  if (
    (await repo.postAuthorOf(trx, postId)) === null ||
    (await repo.postAuthorOf(trx, quote.postId)) === null ||
    (await safety.keepsFrom(trx, authorId, quote.authorId))
  ) {
    return null;
  }
  const groupKey = quoteGroupKey(postId);
  const where = { recipientId: quote.authorId, kind: 'quote', actorId: authorId, groupKey };
  if (await repo.hasNotification(trx, where)) return null;
  await repo.insertNotification(trx, {
    id: newId(event.createdAt),
    recipient_id: quote.authorId,
    kind: 'quote',
    actor_id: authorId,
    post_id: postId,
    comment_id: null,
    group_key: groupKey,
    created_at: event.createdAt,
  });
  return quote.authorId;
}
