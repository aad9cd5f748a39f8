import type { UserStub } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { Transact } from '../../platform/events/transactions';
import type { EntitiesService } from '../discovery/entities.service';
import type { IdempotencyService } from '../idempotency/idempotency.service';
import type { PostsService } from '../posts/posts.service';
import type { HiddenMembers } from '../safety/hidden-members';
import type { CommentPresenter } from '../../read-model/comment/presenter';

export type Db = Kysely<Database>;

export interface CommentsServiceDeps {
  db: Db;
  /** Comments as posts embed them, with the viewer's votes (the read model). */
  presenter: Pick<CommentPresenter, 'firstCommentsOf'>;
  transact: Transact;
  posts: Pick<
    PostsService,
    'lockedPost' | 'card' | 'exists' | 'adjustCommentCount' | 'asMarkedPost'
  >;
  entities: Pick<EntitiesService, 'resolve' | 'record'>;
  /** Comments of members the viewer does not see (blocked either way, muted) are left out. */
  hidden: Pick<HiddenMembers, 'hiddenFor' | 'isBlockedEitherWay'>;
  /** Comments sent again with the same Idempotency-Key answer the first one's comment. */
  idempotency: Pick<IdempotencyService, 'replayed' | 'made'>;
  /** Member summaries: a new comment shows its author's. */
  authors: { of(ids: readonly string[]): Promise<UserStub[]> };
}
