import type { Post } from '@perch/contract';
import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser } from '../../test/fixtures';
import { applyLiveEvent } from '../../app/liveEventHandlers';
import type { LiveContext } from '../../shared/live/liveEventHandlers';
import { createNewPostsStore } from '../../shared/live/newPosts';
import { createSessionStore } from '../session/session';
import type { PostPages } from './postCache';
import { postKeys, type FeedSource } from './postKeys';
import { makePost } from './posts.mocks';
import { quoteOfPost } from './QuoteEmbed';

const viewer = makeUser({ _id: 'u-me', username: 'ada' });

let queryClient: QueryClient;
let context: LiveContext;

beforeEach(() => {
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const store = createSessionStore(window.localStorage, undefined);
  store.signIn({ token: 'token-me', user: viewer });
  context = { queryClient, store, newPosts: createNewPostsStore() };
});

function seedList(source: FeedSource, posts: Post[]) {
  const data: PostPages = { pages: [{ posts, nextCursor: null }], pageParams: [null] };
  queryClient.setQueryData(postKeys.list(source, 'latest'), data);
}

const listOf = (source: FeedSource) =>
  queryClient.getQueryData<PostPages>(postKeys.list(source, 'latest'))?.pages[0]?.posts ?? [];

describe('a quoted post deleted live', () => {
  const quoted = makePost({ _id: 'p-quoted', id: 'p-quoted', content: 'The original' });
  const other = makePost({ _id: 'p-other', id: 'p-other', content: 'Another one' });
  const quoting = makePost({ _id: 'p-quoting', id: 'p-quoting', quote: quoteOfPost(quoted) });
  const quotingOther = makePost({ _id: 'p-q2', id: 'p-q2', quote: quoteOfPost(other) });

  it('shows its cached quotes unavailable, in lists and on their own, and leaves others', () => {
    seedList({ kind: 'home' }, [quoting, quotingOther, quoted]);
    seedList({ kind: 'user', username: 'ada' }, [quoting]);
    queryClient.setQueryData(postKeys.detail(quoting._id), quoting);

    applyLiveEvent(context, {
      type: 'post.deleted',
      payload: { postId: quoted._id, authorId: quoted.author._id },
    });

    const home = listOf({ kind: 'home' });
    expect(home.map((post) => post._id)).toEqual([quoting._id, quotingOther._id]);
    expect(home[0]?.quote).toEqual({ state: 'unavailable' });
    expect(home[1]?.quote).toEqual(quoteOfPost(other));
    expect(listOf({ kind: 'user', username: 'ada' })[0]?.quote).toEqual({ state: 'unavailable' });
    expect(queryClient.getQueryData<Post>(postKeys.detail(quoting._id))?.quote).toEqual({
      state: 'unavailable',
    });
  });

  it('changes nothing when no cached post quotes it', () => {
    seedList({ kind: 'home' }, [quotingOther]);
    const before = queryClient.getQueryData(postKeys.list({ kind: 'home' }, 'latest'));

    applyLiveEvent(context, {
      type: 'post.deleted',
      payload: { postId: quoted._id, authorId: quoted.author._id },
    });

    expect(queryClient.getQueryData(postKeys.list({ kind: 'home' }, 'latest'))).toBe(before);
  });
});
