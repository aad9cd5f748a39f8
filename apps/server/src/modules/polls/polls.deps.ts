import type { Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema';
import type { Transact } from '../../platform/events/transactions';
import type { PostsService } from '../posts/posts.service';

export interface PollsDeps {
  db: Kysely<Database>;
  /** Where polls are found (a read-only connection on SQLite). */
  reads: Kysely<Database>;
  transact: Transact;
  /** A poll's post: locked for a vote, opened for the viewer (404 across a block). */
  posts: Pick<PostsService, 'lockedPost' | 'open'>;
}
