import type { User, UserStub } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { FoundMember } from '../../modules/users/member-search.repository';
import { createFolloweeCache } from './followee-cache';
import { createSearchPageCache } from './search-pages';
import { createMemberSummaries } from './summaries';
import { createMemberViews } from './views';

type Db = Kysely<Database>;

export interface MemberPresenterDeps {
  /** Where members are read (a read-only connection on SQLite). */
  reads: Db;
  /** Member summaries cached. */
  maxSummaries: number;
  /** Member views (search's list items) cached. */
  maxViews: number;
  /** Followee ids cached over all viewers. */
  maxFollowees: number;
  /** A viewer following more than this is asked the database for each page. */
  maxFolloweesPerMember: number;
  /** Member search's first pages cached; 0 for none (PostgreSQL reads its trigram index). */
  maxSearchPages: number;
}

/**
 * Members as the API shows them: summaries (as other records list them), views (as lists show
 * them, with the viewer's state) and member search's first pages. Modules ask it for views by
 * id; how they are cached is its own (the caches below), and the invalidation table says which
 * events drop them (`invalidate`).
 */
export function createMemberPresenter(deps: MemberPresenterDeps) {
  const { reads } = deps;
  const summaries = createMemberSummaries({ reads, max: deps.maxSummaries });
  const views = createMemberViews({ reads, max: deps.maxViews });
  const followees = createFolloweeCache({
    reads,
    maxIds: deps.maxFollowees,
    maxPerMember: deps.maxFolloweesPerMember,
  });
  const searchPages =
    deps.maxSearchPages > 0 ? createSearchPageCache({ reads, max: deps.maxSearchPages }) : null;

  return {
    /**
     * The summaries of the members among `ids` that exist, in the order of `ids`; in a
     * transaction pass it as `within` (see MemberSummaries.of).
     */
    summaries: (ids: readonly string[], within?: Db): Promise<UserStub[]> =>
      summaries.of(ids, within),
    /** The members among `ids` that exist, in the order of `ids`, as `viewerId` sees them. */
    async packMany(ids: readonly string[], viewerId: string | null): Promise<User[]> {
      const followed = viewerId ? await followees.among(viewerId, ids) : new Set<string>();
      return views.listed(ids, viewerId, followed);
    },
    /** The id of the member named `username` (any case), or null when there is none. */
    idOf: (username: string): Promise<string | null> => summaries.idOf(username),
    /**
     * Member search's first page for `key`, cached (SQLite) until a member registers, renames or
     * leaves; read by `read` otherwise.
     */
    firstSearchPage: (key: string, read: () => Promise<FoundMember[]>): Promise<FoundMember[]> =>
      searchPages ? searchPages.firstPage(key, read) : read(),

    /** What the invalidation table drops, by what an event names. */
    invalidate: {
      /** The member's name or picture changed: their summary, view and search's pages. */
      profileChanged: (userId: string): void => {
        summaries.forget(userId);
        views.forget(userId);
        searchPages?.forgetAll();
      },
      /** The member's counts changed (posts, followers, following). */
      countsChanged: (userId: string): void => {
        views.forget(userId);
      },
      /** Whom the member follows changed. */
      followsChanged: (followerId: string): void => {
        followees.forget(followerId);
      },
      /** The member left: all of theirs, and every view's counts. */
      memberDeleted: (userId: string): void => {
        summaries.forgetMember(userId);
        followees.forget(userId);
        searchPages?.forgetAll();
        // Every member they followed or were followed by counts one fewer.
        views.forgetAll();
      },
    },
  };
}

export type MemberPresenter = ReturnType<typeof createMemberPresenter>;
