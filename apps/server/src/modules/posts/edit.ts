import {
  ErrorMessages,
  firstLinkOf,
  POST_EMPTY,
  PollMessages,
  type Post,
  type PostInput,
} from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { badRequest } from '../../lib/errors';
import { sqlBoolean } from '../../platform/db/dialect';
import { recordMentions } from '../discovery/entities.service';
import { encodeEntities } from '../discovery/entities.codec';
import { lockedPost, readPost } from './open';
import { altTextOf, contentWarningOf, sensitiveFlag, type PostsDeps } from './posts.deps';
import * as writes from './posts.writes';

/**
 * The viewer edits their post: its text, its image and the image's description, its content
 * warning and its sensitive mark. What the input leaves out stays as it was.
 */
export function editPost(
  deps: PostsDeps,
  viewer: Viewer,
  postId: string,
  input: PostInput,
): Promise<Post> {
  const { transact, media, entities } = deps;
  // Locked so that two concurrent edits apply one after the other, each to the other's result.
  return transact(async (trx, events) => {
    const post = await lockedPost(deps, trx, postId, viewer, 'none');
    if (post.user_id !== viewer.id) throw badRequest(ErrorMessages.editPostNotOwner);
    const content = input.content ?? post.content;
    const mediaUrl = input.mediaURL === undefined ? post.media_url : input.mediaURL;
    if (content.trim() === '' && !mediaUrl) throw badRequest(POST_EMPTY);
    const mediaChanged = mediaUrl !== post.media_url;
    // A post's poll stays as it was posted, and a post has either a poll or an image.
    if (mediaUrl && post.poll !== null) throw badRequest(PollMessages.pollWithImage);
    if (mediaChanged) await media.assertUsable(trx, viewer.id, mediaUrl);
    // Another image does not keep the description of the one it replaces.
    const altBefore = mediaChanged ? null : post.media_alt;
    const mediaAlt = mediaUrl
      ? input.mediaAlt === undefined
        ? altBefore
        : altTextOf(input.mediaAlt)
      : null;
    const contentWarning =
      input.contentWarning === undefined
        ? post.content_warning
        : contentWarningOf(input.contentWarning);
    const marked = input.sensitive ?? sqlBoolean(post.sensitive);
    const found = await entities.resolve(trx, content);
    // A card of another link goes at once; the card worker fetches the new link's after commit.
    const linkChanged = firstLinkOf(content) !== firstLinkOf(post.content);
    await writes.updatePost(trx, postId, {
      content,
      entities: encodeEntities(found),
      media_url: mediaUrl,
      media_alt: mediaAlt,
      content_warning: contentWarning,
      sensitive: sensitiveFlag(marked, contentWarning),
      updated_at: Date.now(),
      ...(linkChanged ? { preview_card: null } : {}),
    });
    const mentioned = await entities.record(trx, 'post', {
      id: postId,
      authorId: viewer.id,
      createdAt: post.created_at,
      entities: found,
      fresh: false,
    });
    events.record({
      type: 'post.edited',
      payload: {
        postId,
        authorId: viewer.id,
        previousMediaURL: mediaChanged ? post.media_url : null,
      },
    });
    recordMentions(events, { postId, commentId: null, authorId: viewer.id }, mentioned);
    return readPost(deps, postId, viewer, trx);
  });
}
