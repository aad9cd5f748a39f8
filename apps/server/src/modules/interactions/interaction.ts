import type {
  DomainEvent,
  DomainEventType,
  EventAudience,
  EXPORT_FILES,
  NotificationKind,
} from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';

type Db = Kysely<Database>;

/**
 * One kind of interaction of a member with a subject (a like, a bookmark or a pin of a post, a vote
 * on a comment), declared once: where it is stored, the counter it keeps on its subject, the events it
 * records and who hears them, the notification it makes, how a view shows it and where an export
 * lists it. The generic use cases (add.ts, remove.ts) run every interaction of the toggle kind
 * from its declaration.
 *
 * `Subject` is the subject's row as locked for the change.
 */
export interface Interaction<Subject> {
  /** What it is called in messages and logs: 'like', 'bookmark', 'pin', 'vote'. */
  name: string;
  /** The table of the interactions, one row per member and subject. */
  table: keyof Database;
  /**
   * Stores the member's interaction; false when it was there already (nothing changed). An
   * interaction whose row has an id of its own (a repost) answers that id instead of true.
   */
  add: (trx: Db, subjectId: string, memberId: string, at: number) => Promise<boolean | string>;
  /** Deletes it; false when there was none (the deleted row's id, as `add`). */
  remove: (trx: Db, subjectId: string, memberId: string) => Promise<boolean | string>;
  /** The count the subject keeps of them (a column of its row), or null when it keeps none. */
  counter: {
    column: string;
    adjust: (trx: Db, subjectId: string, delta: 1 | -1) => Promise<void>;
  } | null;
  /** The events an added and a removed interaction record. */
  events: {
    added: DomainEventType;
    removed: DomainEventType;
    /**
     * The event of a change of `memberId`'s interaction with `subject` (as locked, before the
     * change); `count` is the counter after it, when there is one.
     */
    of: (change: InteractionChange<Subject>) => DomainEvent;
  };
  /** Who hears the events on the stream (contract's audienceOf states it for each type). */
  audience: EventAudience['kind'];
  /** The notification an added interaction makes for the subject's author, if any. */
  notification: NotificationKind | null;
  /**
   * How a view of the subject shows it: the count's field, and the field of the member's mark,
   * either the viewer's own (`viewerState`: a like) or one every reader sees alike (`shared`: the
   * author's pin).
   */
  view: { count: string | null } & ({ viewerState: string } | { shared: string });
  /** The file of an account's export that lists the member's interactions of this kind. */
  export: (typeof EXPORT_FILES)[number] | null;
}

/** A change of one member's interaction with one subject, as its event is built from it. */
export interface InteractionChange<Subject> {
  subject: Subject;
  memberId: string;
  added: boolean;
  /** The subject's counter after the change (its row's count before it when there is none). */
  count: number;
  /** The id of the row added or removed, when the interaction's rows have one (see `add`). */
  rowId: string | null;
}
