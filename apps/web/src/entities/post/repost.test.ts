import type { Post } from '@perch/contract';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { applyLiveEvent } from '../../app/liveEventHandlers';
import type { LiveContext } from '../../shared/live/liveEventHandlers';
import type { LiveEvent } from '../../shared/live/liveEventTypes';
import { createNewPostsStore } from '../../shared/live/newPosts';
import { createSessionStore } from '../session/session';
import type { PostPages } from './postCache';
import { postKeys, type FeedSource } from './postKeys';
import { makePost } from './posts.mocks';
import { withRepost } from './repost';

const bo = {
  _id: 'u-bo',
  id: 'u-bo',
  username: 'bo',
  firstName: 'Bo',
  lastName: 'Li',
  avatarURL: null,
};
const viewer = makeUser({ _id: 'u-me', username: 'ada', following: [bo] });

let queryClient: QueryClient;
let context: LiveContext;
let store: ReturnType<typeof createSessionStore>;

beforeEach(() => {
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  store = createSessionStore(window.localStorage, undefined);
  store.signIn({ token: 'token-me', user: viewer });
  context = { queryClient, store, newPosts: createNewPostsStore() };
});

function seedList(source: FeedSource, posts: Post[]) {
  const data: PostPages = { pages: [{ posts, nextCursor: null }], pageParams: [null] };
  queryClient.setQueryData(postKeys.list(source, 'latest'), data);
}

function firstOf(source: FeedSource): Post | undefined {
  return queryClient.getQueryData<PostPages>(postKeys.list(source, 'latest'))?.pages[0]?.posts[0];
}

const event = (
  type: 'post.reposted' | 'post.unreposted',
  postId: string,
  userId: string,
  repostCount: number,
): LiveEvent => ({ type, payload: { postId, userId, repostCount } });

describe('withRepost', () => {
  it('marks the viewer and counts once, and undoes it without going below zero', () => {
    const post = makePost({ repostCount: 0 });
    const reposted = withRepost(post, 'repost');
    expect(reposted).toMatchObject({ repostedByViewer: true, repostCount: 1 });
    expect(withRepost(reposted, 'repost')).toBe(reposted);
    expect(withRepost(reposted, 'unrepost')).toMatchObject({
      repostedByViewer: false,
      repostCount: 0,
    });
    expect(withRepost({ ...post, repostedByViewer: true }, 'unrepost').repostCount).toBe(0);
  });
});

describe('live reposts', () => {
  it("sets another member's repost count in every list and the post's own entry", () => {
    const post = makePost({ repostCount: 1 });
    seedList({ kind: 'home' }, [post]);
    seedList({ kind: 'user', username: 'grace_h' }, [post]);
    queryClient.setQueryData(postKeys.detail(post._id), post);

    applyLiveEvent(context, event('post.reposted', post._id, 'u-bo', 2));

    for (const copy of [
      firstOf({ kind: 'home' }),
      firstOf({ kind: 'user', username: 'grace_h' }),
      queryClient.getQueryData<Post>(postKeys.detail(post._id)),
    ]) {
      expect(copy?.repostCount).toBe(2);
      expect(copy?.repostedByViewer).toBe(false);
    }

    applyLiveEvent(context, event('post.unreposted', post._id, 'u-bo', 0));
    expect(firstOf({ kind: 'home' })?.repostCount).toBe(0);
  });

  it("shows the viewer's repost from another tab as theirs, and its undoing", () => {
    const post = makePost({ repostCount: 3 });
    seedList({ kind: 'explore' }, [post]);

    applyLiveEvent(context, event('post.reposted', post._id, viewer._id, 4));
    expect(firstOf({ kind: 'explore' })).toMatchObject({ repostedByViewer: true, repostCount: 4 });

    applyLiveEvent(context, event('post.unreposted', post._id, viewer._id, 3));
    expect(firstOf({ kind: 'explore' })).toMatchObject({ repostedByViewer: false, repostCount: 3 });
  });

  it("leaves the viewer's mark to a repost still on its way in this tab", async () => {
    const post = makePost({ repostCount: 1 });
    seedList({ kind: 'home' }, [post]);
    const pending = new MutationObserver(queryClient, {
      mutationKey: ['posts', 'repost'],
      scope: { id: `posts:repost:${post._id}` },
      mutationFn: () => new Promise<never>(() => undefined),
    });
    void pending.mutate();
    await Promise.resolve();

    applyLiveEvent(context, event('post.reposted', post._id, viewer._id, 2));

    expect(firstOf({ kind: 'home' })).toMatchObject({ repostedByViewer: false, repostCount: 2 });
  });
});

describe('reposts by followed members', () => {
  it('offers a post a followed member reposted on Home, once, as a new post', () => {
    const shown = makePost();
    seedList({ kind: 'home' }, [shown]);

    applyLiveEvent(context, event('post.reposted', 'p-elsewhere', bo._id, 1));
    applyLiveEvent(context, event('post.reposted', 'p-elsewhere', bo._id, 1));
    expect(context.newPosts.getSnapshot()).toBe(1);

    // Not followed, or already on Home: nothing to offer.
    applyLiveEvent(context, event('post.reposted', 'p-other', 'u-stranger', 1));
    applyLiveEvent(context, event('post.reposted', shown._id, bo._id, 1));
    expect(context.newPosts.getSnapshot()).toBe(1);
  });

  it('withdraws the offer when the repost is undone, unless something else brought the post', () => {
    const cy = { ...bo, _id: 'u-cy', id: 'u-cy', username: 'cy' };
    store.signIn({ token: 'token-me', user: { ...viewer, following: [bo, cy] } });
    seedList({ kind: 'home' }, [makePost()]);

    applyLiveEvent(context, event('post.reposted', 'p-once', bo._id, 1));
    applyLiveEvent(context, event('post.unreposted', 'p-once', bo._id, 0));
    expect(context.newPosts.getSnapshot()).toBe(0);

    // Reposted by two followed members: it stays offered until both undo theirs.
    applyLiveEvent(context, event('post.reposted', 'p-twice', bo._id, 1));
    applyLiveEvent(context, event('post.reposted', 'p-twice', cy._id, 2));
    applyLiveEvent(context, event('post.unreposted', 'p-twice', bo._id, 1));
    expect(context.newPosts.getSnapshot()).toBe(1);
    applyLiveEvent(context, event('post.unreposted', 'p-twice', cy._id, 0));
    expect(context.newPosts.getSnapshot()).toBe(0);

    // A followed author's own new post stays offered when a repost of it is undone.
    applyLiveEvent(context, event('post.reposted', 'p-new', bo._id, 1));
    applyLiveEvent(context, {
      type: 'post.created',
      payload: { postId: 'p-new', authorId: cy._id },
    });
    applyLiveEvent(context, event('post.unreposted', 'p-new', bo._id, 0));
    expect(context.newPosts.getSnapshot()).toBe(1);
  });

  it('offers nothing before Home has loaded (its first page brings the post)', () => {
    applyLiveEvent(context, event('post.reposted', 'p-elsewhere', bo._id, 1));
    expect(context.newPosts.getSnapshot()).toBe(0);
  });
});
