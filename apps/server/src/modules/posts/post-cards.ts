import type { PublishedEvent } from '@perch/contract';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { idListValue } from '../../db/dialect';
import type { Database } from '../../db/schema';
import { faceOf, type PostFace } from './posts.mapper';
import { cardsAmong } from './posts.repository';

type Db = Kysely<Database>;

export interface PostCardsDeps {
  /** Where cards are read from (a read-only connection on SQLite). */
  reads: Db;
  /** Cards kept. */
  max: number;
}

/**
 * Post cards by id, kept in a bounded cache: a page of posts is then a page of ids. Every change
 * to what a card shows is an event (edit, delete, like, comment, profile edit, a member's account
 * deleted): each process drops
 * the cards those events name when the relay hands them on; the process that made a change drops
 * its card at once, so its member reads their own write.
 */
export function createPostCards({ reads, max }: PostCardsDeps) {
  const cards = new LRUCache<string, PostFace>({ max });
  // A card is kept on its second read: most cards of a list read once (a stranger's profile)
  // are never read again, and keeping them would only churn the cache and the heap.
  const seen = new LRUCache<string, true>({ max: max * 2 });
  // Cards read while a change was being dropped may predate it: those are used but not kept.
  let changes = 0;

  function forget(postId: string): void {
    changes += 1;
    cards.delete(postId);
  }

  function forgetAll(): void {
    changes += 1;
    cards.clear();
  }

  function forgetAuthor(userId: string): void {
    changes += 1;
    for (const [id, face] of cards.entries()) if (face.card.user_id === userId) cards.delete(id);
  }

  function onEvent(event: PublishedEvent): void {
    switch (event.type) {
      case 'post.edited':
      case 'post.deleted':
      case 'post.liked':
      case 'post.unliked':
      case 'comment.added':
      case 'comment.deleted':
        forget(event.payload.postId);
        break;
      case 'profile.edited':
        forgetAuthor(event.payload.userId);
        break;
      case 'member.deleted':
        // Their posts went, and their likes and comments changed counts on posts all over,
        // which the event does not list. Accounts are deleted rarely; the cache refills as read.
        forgetAll();
        break;
      default:
        break;
    }
  }

  return {
    /** The cards of the posts among `ids` that exist. */
    async of(ids: readonly string[]): Promise<Map<string, PostFace>> {
      const found = new Map<string, PostFace>();
      const missing: string[] = [];
      for (const id of ids) {
        const card = cards.get(id);
        if (card) found.set(id, card);
        else missing.push(id);
      }
      if (missing.length === 0) return found;
      const before = changes;
      const rows = await cardsAmong(reads, idListValue(reads, missing));
      const keep = changes === before;
      for (const row of rows) {
        const face = faceOf(row);
        found.set(row.id, face);
        if (!keep) continue;
        if (seen.has(row.id)) cards.set(row.id, face);
        else seen.set(row.id, true);
      }
      return found;
    },
    forget,
    /** Drops every card (after a member's account was deleted). */
    forgetAll,
    /** For relay.listen: drops the cards that committed events changed. */
    listener: (events: readonly PublishedEvent[]): void => {
      for (const event of events) onEvent(event);
    },
  };
}

export type PostCards = ReturnType<typeof createPostCards>;
