import type { PublishedEvent, User } from '@perch/contract';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { idListValue } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';
import { keptByKeyUntilChanged } from '../../lib/kept-until-changed';
import { withJson } from '../../lib/serialized';
import { toUser } from './users.mapper';
import { membersAmong } from './users.repository';

type Db = Kysely<Database>;

/** A member as every reader sees them in a list, with its JSON written once. */
interface MemberCard {
  /** Without the email and the reader's flag. */
  user: User;
  /** Shown to the member only. */
  email: string;
  /** user's JSON without its closing brace, for what a reader adds after it. */
  open: string;
  /** The card as a reader who follows the member sees it, and one who does not: made once. */
  followed?: User;
  unfollowed?: User;
}

export interface MemberCardsDeps {
  /** Where cards are read (a read-only connection on SQLite). */
  reads: Db;
  /** Cards kept. */
  max: number;
}

/**
 * Members as lists show them (member search), kept by id with their JSON: a page of members is
 * then its ids, read from an index, and these cards. A card changes with its member's profile and
 * counts: each process drops it when the relay hands it the event (a post written or deleted, a
 * follow begun or ended, a profile edited), and the process that made the change at once
 * (`forget`). An account's deletion changes the counts of the members it followed or was followed
 * by, so it drops every card.
 */
export function createMemberCards({ reads, max }: MemberCardsDeps) {
  const cards = keptByKeyUntilChanged(new LRUCache<string, MemberCard>({ max }));

  async function readCards(ids: readonly string[]): Promise<Map<string, MemberCard>> {
    const mark = cards.mark();
    const read = new Map<string, MemberCard>();
    for (const row of await membersAmong(reads, idListValue(reads, ids))) {
      const user = toUser(row);
      const json = JSON.stringify(user);
      const card = { user: withJson(user, json), email: row.email, open: json.slice(0, -1) };
      read.set(row.id, card);
      cards.keep(mark, row.id, card);
    }
    return read;
  }

  return {
    /**
     * The members among `ids` that exist, in the order of `ids`, as `viewer` sees them: their own
     * record with its email, the others with whether the viewer follows them (`followed`).
     */
    async listed(
      ids: readonly string[],
      viewerId: string | null,
      followed: ReadonlySet<string>,
    ): Promise<User[]> {
      const kept = ids.map((id) => cards.get(id));
      const missing = ids.filter((_, index) => kept[index] === undefined);
      const read = missing.length > 0 ? await readCards(missing) : undefined;
      const users: User[] = [];
      ids.forEach((id, index) => {
        const card = kept[index] ?? read?.get(id);
        if (card) users.push(seenBy(card, viewerId, followed.has(id)));
      });
      return users;
    },
    forget: (userId: string): void => {
      cards.forget(userId);
    },
    forgetAll: (): void => {
      cards.forgetAll();
    },
    /** For relay.listen: drops the cards of members whose counts or profile changed. */
    listener: (events: readonly PublishedEvent[]): void => {
      for (const event of events) {
        switch (event.type) {
          case 'post.created':
          case 'post.deleted':
            cards.forget(event.payload.authorId);
            break;
          case 'member.followed':
          case 'member.unfollowed':
            cards.forget(event.payload.followerId);
            cards.forget(event.payload.followeeId);
            break;
          case 'profile.edited':
            cards.forget(event.payload.userId);
            break;
          case 'member.deleted':
            cards.forgetAll();
            break;
          default:
            break;
        }
      }
    },
  };
}

/**
 * The card as toUser writes it for the viewer: the email after the counts, then the flag. What
 * other members see is made once per card and shared, never changed (see serialized.ts).
 */
function seenBy(card: MemberCard, viewerId: string | null, followed: boolean): User {
  if (viewerId === null) return card.user;
  if (viewerId !== card.user._id) {
    if (followed) return (card.followed ??= flagged(card, {}, '', true));
    return (card.unfollowed ??= flagged(card, {}, '', false));
  }
  const email = { email: card.email };
  return flagged(card, email, `,"email":${JSON.stringify(card.email)}`, followed);
}

function flagged(
  card: MemberCard,
  email: { email?: string },
  emailJson: string,
  followed: boolean,
): User {
  const user: User = { ...card.user, ...email, followedByViewer: followed };
  // Pieces, not one string: the card's JSON is then kept once, whichever faces it has.
  return withJson(user, [card.open, emailJson, followed ? FOLLOWED : NOT_FOLLOWED]);
}

const FOLLOWED = ',"followedByViewer":true}';
const NOT_FOLLOWED = ',"followedByViewer":false}';

export type MemberCards = ReturnType<typeof createMemberCards>;
