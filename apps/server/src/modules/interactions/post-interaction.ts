import type { Post } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Viewer } from '../../lib/viewer';
import type { Database } from '../../platform/db/schema';
import type { Transact } from '../../platform/events/transactions';
import { badRequest } from '../../lib/errors';
import type { LockedPost, PostsService, ViewerStateRead } from '../posts/posts.service';
import type { Interaction } from './interaction';

/** An interaction of a member with a post (a like, a bookmark), and what its answer shows. */
export interface PostInteraction extends Interaction<LockedPost> {
  /** The viewer's other state the answer shows, read with the locked post. */
  otherViewerState: ViewerStateRead;
  /** The post's counter as locked (before the change). */
  countOf: (post: LockedPost) => number;
  /** The post as the answer shows it after the change. */
  changed: (post: LockedPost, added: boolean, count: number) => LockedPost;
  /** The messages of a change that changes nothing. */
  refusals: { alreadyAdded: string; notThere: (post: LockedPost) => string };
  /**
   * Rules an addition must pass beyond the post's existence (whose post, how many), checked in its
   * transaction under the post's lock before anything is stored; throws an AppError to refuse.
   */
  admit?: (admission: Admission) => Promise<void>;
}

/** What an interaction's rules are checked with. */
export interface Admission {
  trx: Kysely<Database>;
  /** The post as locked for the change. */
  post: LockedPost;
  memberId: string;
  /** Holds the member's row until the transaction ends (after the post's: see the lock order). */
  lockMember: (trx: Kysely<Database>, memberId: string) => Promise<boolean>;
}

export interface PostInteractionDeps {
  transact: Transact;
  posts: Pick<PostsService, 'lockedPost' | 'asPost'>;
  /** Members' rows, locked for rules that count a member's interactions (see Admission). */
  members: { lock: Admission['lockMember'] };
}

/**
 * Adds (`added`) or removes the viewer's interaction with the post: its row, the post's counter,
 * its event; a change that changes nothing (a second like) is refused and leaves nothing. Answers
 * the post as the viewer sees it after the change.
 */
export function changePostInteraction(
  { transact, posts, members }: PostInteractionDeps,
  interaction: PostInteraction,
  viewer: Viewer,
  postId: string,
  added: boolean,
): Promise<Post> {
  return transact(async (trx, events) => {
    const post = await posts.lockedPost(trx, postId, viewer, interaction.otherViewerState);
    if (added && interaction.admit) {
      await interaction.admit({ trx, post, memberId: viewer.id, lockMember: members.lock });
    }
    const changed = added
      ? await interaction.add(trx, postId, viewer.id, Date.now())
      : await interaction.remove(trx, postId, viewer.id);
    if (!changed) {
      throw badRequest(
        added ? interaction.refusals.alreadyAdded : interaction.refusals.notThere(post),
      );
    }
    let count = interaction.countOf(post);
    if (interaction.counter) {
      await interaction.counter.adjust(trx, postId, added ? 1 : -1);
      count += added ? 1 : -1;
    }
    const rowId = typeof changed === 'string' ? changed : null;
    events.record(
      interaction.events.of({ subject: post, memberId: viewer.id, added, count, rowId }),
    );
    return posts.asPost(interaction.changed(post, added, count), viewer, trx);
  });
}
