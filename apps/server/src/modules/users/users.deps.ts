import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { Transact } from '../../platform/events/transactions';
import type { MediaService } from '../media/media.service';
import type { HiddenMembers } from '../safety/hidden-members';
import type { TimelinesService } from '../timelines/timelines.service';
import type { KeptFollowees } from './kept-followees';
import type { MemberCards } from './member-cards';
import type { MemberSearchPages } from './member-search-pages';
import type { MemberStubs } from './member-stubs';

export type Db = Kysely<Database>;

export interface UsersServiceDeps {
  db: Db;
  /**
   * Where profiles, searches and suggestions are read (a read-only connection on SQLite, where
   * they never wait behind a write transaction); db by default.
   */
  reads?: Db;
  transact: Transact;
  media: Pick<MediaService, 'assertUsable'>;
  /** Home timelines follow follows (in the follow's transaction). */
  timelines?: Pick<TimelinesService, 'followed' | 'unfollowed'>;
  /** Blocks keep members apart: no follow, no profile, no place in search or suggestions. */
  hidden: Pick<HiddenMembers, 'relationsOf' | 'blockedFor' | 'isBlockedEitherWay'>;
  /** Members as other records list them (followers, following). */
  stubs: Pick<MemberStubs, 'of' | 'idOf' | 'forget' | 'forgetMember'>;
  /** Members as member search lists them. */
  cards: Pick<MemberCards, 'listed' | 'forget' | 'forgetAll'>;
  /** Whom readers follow, for the lists' flags. */
  followees: Pick<KeptFollowees, 'among' | 'forget'>;
  /** SQLite: member search's first pages. */
  searchPages?: Pick<MemberSearchPages, 'firstPage' | 'forgetAll'>;
}

/** What the member use cases are given: the service's dependencies, `reads` settled. */
export type UsersDeps = UsersServiceDeps & { reads: Db };
