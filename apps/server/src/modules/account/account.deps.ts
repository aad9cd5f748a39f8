import type { Transact } from '../../platform/events/transactions';
import type { PasswordHasher } from '../auth/auth.service';
import type { EntitiesService } from '../discovery/entities.service';
import type { NotificationsService } from '../notifications/notifications.service';
import type { PollsService } from '../polls/polls.service';
import type { SessionsService } from '../sessions/sessions.service';
import type { UsersService } from '../users/users.service';

export interface AccountServiceDeps {
  transact: Transact;
  users: Pick<UsersService, 'recordById' | 'replacePasswordHash'>;
  sessions: Pick<SessionsService, 'revokeWithin' | 'forget'>;
  entities: Pick<EntitiesService, 'lockTagsOfAuthor' | 'forgetPostsOf'>;
  notifications: Pick<NotificationsService, 'recipientsTouchedByMember' | 'recordUnreadCounts'>;
  polls: Pick<PollsService, 'withdrawVotesWithin'>;
  passwordHashCost: number;
  passwords?: PasswordHasher;
}

/** What the account use cases are given: the service's dependencies, the hasher settled. */
export type AccountDeps = AccountServiceDeps & { passwords: PasswordHasher };
