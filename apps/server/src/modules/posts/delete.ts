import { ErrorMessages } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { badRequest } from '../../lib/errors';
import { albumOf } from './album';
import { lockedPost } from './open';
import type { PostsDeps } from './posts.deps';
import * as writes from './posts.writes';

/** The viewer deletes their post; its likes, comments and bookmarks go with it. */
export async function deletePost(deps: PostsDeps, viewer: Viewer, postId: string): Promise<void> {
  const { transact, entities } = deps;
  await transact(async (trx, events) => {
    const post = await lockedPost(deps, trx, postId, viewer, 'none');
    if (post.user_id !== viewer.id) throw badRequest(ErrorMessages.deletePostNotOwner);
    // The post's row (above), the author's, then the tags': the lock order of every writer.
    await writes.adjustPostsCount(trx, viewer.id, -1);
    await entities.forgetPost(trx, postId);
    await writes.deletePost(trx, postId);
    events.record({
      type: 'post.deleted',
      payload: {
        postId,
        authorId: viewer.id,
        mediaURL: post.media_url,
        mediaURLs: albumOf(post).map((image) => image.url),
      },
    });
  });
}
