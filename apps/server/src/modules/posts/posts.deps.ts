import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { Transact } from '../../platform/events/transactions';
import type { PostPresenter } from '../../read-model/post/presenter';
import type { MediaService } from '../media/media.service';
import type { IdempotencyService } from '../idempotency/idempotency.service';
import type { HiddenMembers } from '../safety/hidden-members';
import type { UsersService } from '../users/users.service';
import type { EntitiesService } from '../discovery/entities.service';
import type { TimelinesService } from '../timelines/timelines.service';
import type { UserStub } from '@perch/contract';
import type { attachPoll } from '../polls/attach';

export type Db = Kysely<Database>;

export interface PostsServiceDeps {
  db: Db;
  /** Where lists are read (a read-only connection on SQLite); db by default. */
  reads?: Db;
  timelines: Pick<TimelinesService, 'page' | 'posted'>;
  /** Posts as the API shows them. */
  presenter: PostPresenter;
  /** Member summaries: the author of a post read for a change (in its transaction). */
  authors: { of(ids: readonly string[], within?: Db): Promise<UserStub[]> };
  transact: Transact;
  media: Pick<MediaService, 'assertUsable' | 'factsOf'>;
  users: Pick<UsersService, 'idOf' | 'followsNearlyEveryone'>;
  entities: Pick<EntitiesService, 'resolve' | 'record' | 'forgetPost'>;
  /** Whose posts each viewer does not see, and which posts they may not touch. */
  hidden: Pick<HiddenMembers, 'hiddenFor' | 'separated' | 'isBlockedEitherWay'>;
  /** Creates sent again with the same Idempotency-Key answer the first one's post. */
  idempotency: Pick<IdempotencyService, 'replayed' | 'made'>;
  /** A new post's poll, written in its transaction (see modules/polls). */
  polls: { attach: typeof attachPoll };
}

/** The deps with `reads` settled. */
export type PostsDeps = PostsServiceDeps & { reads: Db };

/** An image description as stored: spaces around it dropped, none for an empty one. */
export function altTextOf(text: string | null | undefined): string | null {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** A content warning as stored, like a description: trimmed, none for an empty one. */
export const contentWarningOf = altTextOf;

/**
 * Whether a post's images are sensitive (stored as 0 or 1): as the member marks them, and always
 * under a content warning, since the warning hides them anyway and other apps read the mark alone.
 */
export function sensitiveFlag(marked: boolean, contentWarning: string | null): number {
  return marked || contentWarning !== null ? 1 : 0;
}
