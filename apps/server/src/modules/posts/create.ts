import type { Post, PostCreateInput } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { newId } from '../../lib/ids';
import { recordMentions } from '../discovery/entities.service';
import { encodeEntities } from '../discovery/entities.codec';
import { encodeAlbum, requestedAlbum } from './album';
import { readPost } from './open';
import { quoteTarget } from './quote';
import { contentWarningOf, sensitiveFlag, type PostsDeps } from './posts.deps';
import * as writes from './posts.writes';

/** A new post by the viewer. With an idempotency key, a retry answers the post the first made. */
export async function createPost(
  deps: PostsDeps,
  viewer: Viewer,
  input: PostCreateInput,
  idempotencyKey?: string,
): Promise<Post> {
  const { transact, idempotency, entities, timelines, presenter } = deps;
  const now = Date.now();
  // The poll as the post's row keeps it, set in the transaction (again if it runs again).
  let poll: string | null = null;
  const made = await transact(async (trx, events): Promise<string | writes.NewPost> => {
    const id = newId(now);
    if (idempotencyKey !== undefined) {
      const earlier = await idempotency.replayed(trx, viewer.id, idempotencyKey, 'post');
      if (earlier !== null) return earlier;
    }
    // The quoted post is held first: a post's lock comes before members' rows (lock order).
    const quote = await quoteTarget(deps, trx, input.quoteId, viewer);
    const album = (await requestedAlbum(deps, trx, viewer.id, input)) ?? [];
    const content = input.content ?? '';
    const found = await entities.resolve(trx, content);
    const contentWarning = contentWarningOf(input.contentWarning);
    const row = {
      id,
      user_id: viewer.id,
      content,
      entities: encodeEntities(found),
      // The first image stays in the columns that read one image a post.
      media_url: album[0]?.url ?? null,
      media_alt: album[0]?.alt ?? null,
      media: encodeAlbum(album),
      content_warning: contentWarning,
      sensitive: sensitiveFlag(input.sensitive ?? false, contentWarning),
      created_at: now,
      quote_id: quote?.postId ?? null,
    };
    await writes.insertPost(trx, row);
    poll = input.poll ? await deps.polls.attach(trx, row, input.poll, now) : null;
    await writes.setPostMedia(
      trx,
      id,
      album.map((image) => image.url),
      false,
    );
    await writes.adjustPostsCount(trx, viewer.id, 1);
    const mentioned = await entities.record(trx, 'post', {
      id,
      authorId: viewer.id,
      createdAt: now,
      entities: found,
      fresh: true,
    });
    await timelines.posted(trx, viewer.id, id);
    const quoted = quote ? { quote } : {};
    events.record({
      type: 'post.created',
      payload: { postId: id, authorId: viewer.id, ...quoted },
    });
    recordMentions(events, { postId: id, commentId: null, authorId: viewer.id }, mentioned);
    if (idempotencyKey !== undefined) {
      await idempotency.made(trx, viewer.id, idempotencyKey, { post_id: id });
    }
    return row;
  });
  // A retry answers the post the first request made, as it is now.
  if (typeof made === 'string') return readPost(deps, made, viewer);
  // Answered from the record as written rather than read back (see docs/decisions).
  return (
    (await presenter.written({ ...writes.writtenRecord(made), poll }, viewer)) ??
    readPost(deps, made.id, viewer)
  );
}
