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
import { albumOf, encodeAlbum, requestedAlbum, urlsMissingFrom } from './album';
import { lockedPost, readPost } from './open';
import { contentWarningOf, sensitiveFlag, type PostsDeps } from './posts.deps';
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
  const { transact, entities } = deps;
  // Locked so that two concurrent edits apply one after the other, each to the other's result.
  return transact(async (trx, events) => {
    const post = await lockedPost(deps, trx, postId, viewer, 'none');
    if (post.user_id !== viewer.id) throw badRequest(ErrorMessages.editPostNotOwner);
    const content = input.content ?? post.content;
    const before = albumOf(post);
    const album = (await requestedAlbum(deps, trx, viewer.id, input, before)) ?? before;
    if (content.trim() === '' && album.length === 0) throw badRequest(POST_EMPTY);
    // A post's poll stays as it was posted, and a post has either a poll or images.
    if (album.length > 0 && post.poll !== null) throw badRequest(PollMessages.pollWithImage);
    const dropped = urlsMissingFrom(before, album);
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
      media_url: album[0]?.url ?? null,
      media_alt: album[0]?.alt ?? null,
      media: encodeAlbum(album),
      content_warning: contentWarning,
      sensitive: sensitiveFlag(marked, contentWarning),
      updated_at: Date.now(),
      ...(linkChanged ? { preview_card: null } : {}),
    });
    await writes.setPostMedia(
      trx,
      postId,
      album.map((image) => image.url),
      true,
    );
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
        previousMediaURL: dropped[0] ?? null,
        previousMediaURLs: dropped,
      },
    });
    recordMentions(events, { postId, commentId: null, authorId: viewer.id }, mentioned);
    return readPost(deps, postId, viewer, trx);
  });
}
