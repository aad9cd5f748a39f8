import type { User } from '@perch/contract';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { idListValue } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';
import { keptByKeyUntilChanged } from '../../lib/kept-until-changed';
import { withJson } from '../../lib/serialized';
import { toUser } from '../../modules/users/users.mapper';
import { membersAmong } from '../../modules/users/users.repository';

type Db = Kysely<Database>;

/** A member as every viewer sees them in a list, with its JSON written once. */
interface MemberView {
  /** Without the email and the reader's flag. */
  user: User;
  /** Shown to the member only. */
  email: string;
  /** user's JSON without its closing brace, for what a viewer's state adds after it. */
  open: string;
  /** The view as a viewer who follows the member sees it, and one who does not: made once. */
  followed?: User;
  unfollowed?: User;
}

export interface MemberViewsDeps {
  /** Where members are read (a read-only connection on SQLite). */
  reads: Db;
  /** Views cached. */
  max: number;
}

/**
 * Members as lists show them (member search), cached by id with their JSON: a page of members is
 * then its ids, read from an index, and these views. A view changes with its member's profile and
 * counts (a post written or deleted, a follow begun or ended, a profile edited): the invalidation
 * table drops it. An account's deletion changes the counts of the members it followed or was
 * followed by, so it drops every view.
 */
export function createMemberViews({ reads, max }: MemberViewsDeps) {
  const views = keptByKeyUntilChanged(new LRUCache<string, MemberView>({ max }));

  async function readViews(ids: readonly string[]): Promise<Map<string, MemberView>> {
    const mark = views.mark();
    const read = new Map<string, MemberView>();
    for (const row of await membersAmong(reads, idListValue(reads, ids))) {
      const user = toUser(row);
      const json = JSON.stringify(user);
      const view = { user: withJson(user, json), email: row.email, open: json.slice(0, -1) };
      read.set(row.id, view);
      views.keep(mark, row.id, view);
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
      const cached = ids.map((id) => views.get(id));
      const missing = ids.filter((_, index) => cached[index] === undefined);
      const read = missing.length > 0 ? await readViews(missing) : undefined;
      const users: User[] = [];
      ids.forEach((id, index) => {
        const view = cached[index] ?? read?.get(id);
        if (view) users.push(seenBy(view, viewerId, followed.has(id)));
      });
      return users;
    },
    forget: (userId: string): void => {
      views.forget(userId);
    },
    forgetAll: (): void => {
      views.forgetAll();
    },
  };
}

/**
 * The view as toUser writes it for the viewer: the email after the counts, then the flag. What
 * other members see is made once per view and shared, never changed (see serialized.ts).
 */
function seenBy(view: MemberView, viewerId: string | null, followed: boolean): User {
  if (viewerId === null) return view.user;
  if (viewerId !== view.user._id) {
    if (followed) return (view.followed ??= flagged(view, {}, '', true));
    return (view.unfollowed ??= flagged(view, {}, '', false));
  }
  const email = { email: view.email };
  return flagged(view, email, `,"email":${JSON.stringify(view.email)}`, followed);
}

function flagged(
  view: MemberView,
  email: { email?: string },
  emailJson: string,
  followed: boolean,
): User {
  const user: User = { ...view.user, ...email, followedByViewer: followed };
  // Pieces, not one string: the view's JSON is then held once, whichever viewer states it has.
  return withJson(user, [view.open, emailJson, followed ? FOLLOWED : NOT_FOLLOWED]);
}

const FOLLOWED = ',"followedByViewer":true}';
const NOT_FOLLOWED = ',"followedByViewer":false}';

export type MemberViews = ReturnType<typeof createMemberViews>;
