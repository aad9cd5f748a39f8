import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { Transact } from '../../platform/events/transactions';
import type { MediaService } from '../media/media.service';
import type { HiddenMembers } from '../safety/hidden-members';
import type { TimelinesService } from '../timelines/timelines.service';
import type { MemberPresenter } from '../../read-model/member/presenter';

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
  /** Members as the API shows them (summaries, list views, search's first pages). */
  members: Pick<MemberPresenter, 'summaries' | 'packMany' | 'idOf' | 'firstSearchPage'>;
}

/** What the member use cases are given: the service's dependencies, `reads` settled. */
export type UsersDeps = UsersServiceDeps & { reads: Db };
