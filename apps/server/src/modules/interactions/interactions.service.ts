import type { Post } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import {
  changePostInteraction,
  type PostInteraction,
  type PostInteractionDeps,
} from './post-interaction';

/** Members' interactions with posts (likes, bookmarks, pins), each run from its declaration. */
export function createInteractionsService(deps: PostInteractionDeps) {
  return {
    add: (interaction: PostInteraction, viewer: Viewer, postId: string): Promise<Post> =>
      changePostInteraction(deps, interaction, viewer, postId, true),
    remove: (interaction: PostInteraction, viewer: Viewer, postId: string): Promise<Post> =>
      changePostInteraction(deps, interaction, viewer, postId, false),
  };
}

export type InteractionsService = ReturnType<typeof createInteractionsService>;
