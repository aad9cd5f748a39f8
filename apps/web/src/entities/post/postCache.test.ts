import type { Post, PostPage } from '@perch/contract';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import {
  comparePosts,
  findCachedPost,
  flattenPages,
  insertPostIntoLists,
  insertPostIntoPages,
  isSource,
  removePostFromLists,
  restoreRemovedPosts,
  updatePostInCaches,
  type PostPages,
} from './postCache';
import { postKeys } from './postKeys';
import { makePost } from './posts.mocks';

function pages(...lists: { posts: Post[]; nextCursor?: string | null }[]): PostPages {
  return {
    pages: lists.map(({ posts, nextCursor = null }): PostPage => ({ posts, nextCursor })),
    pageParams: lists.map((_, index) => (index === 0 ? null : `cursor-${String(index)}`)),
  };
}

function ids(data: PostPages | undefined): string[][] {
  return data?.pages.map((page) => page.posts.map((post) => post._id)) ?? [];
}

const at = (hour: number) => new Date(Date.UTC(2026, 10, 22, hour)).toISOString();

describe('updatePostInCaches', () => {
  it('updates the post in every page of every list and its single entry, nothing else', () => {
    const client = new QueryClient();
    const target = makePost({ _id: 'target' });
    const other = makePost({ _id: 'other' });
    const homeKey = postKeys.list({ kind: 'home' }, 'latest');
    const trendingKey = postKeys.list({ kind: 'home' }, 'trending');
    const profileKey = postKeys.list({ kind: 'user', username: 'grace_h' }, 'latest');
    const bookmarksKey = postKeys.list({ kind: 'bookmarks' }, 'latest');
    client.setQueryData(homeKey, pages({ posts: [other], nextCursor: 'c' }, { posts: [target] }));
    client.setQueryData(trendingKey, pages({ posts: [target, other] }));
    client.setQueryData(profileKey, pages({ posts: [other] }, { posts: [other, target] }));
    const untouched = pages({ posts: [other] });
    client.setQueryData(bookmarksKey, untouched);
    client.setQueryData(postKeys.detail('target'), target);

    updatePostInCaches(client, 'target', (post) => ({ ...post, content: 'Changed' }));

    const contentOf = (key: readonly unknown[]) =>
      flattenPages(client.getQueryData<PostPages>(key)).find((post) => post._id === 'target')
        ?.content;
    expect(contentOf(homeKey)).toBe('Changed');
    expect(contentOf(trendingKey)).toBe('Changed');
    expect(contentOf(profileKey)).toBe('Changed');
    expect(client.getQueryData<Post>(postKeys.detail('target'))?.content).toBe('Changed');
    // Lists without the post keep their identity, and so do pages without it.
    expect(client.getQueryData(bookmarksKey)).toBe(untouched);
    const home = client.getQueryData<PostPages>(homeKey);
    expect(home?.pages[0]?.posts[0]).toBe(other);
    expect(findCachedPost(client, 'other')).toBe(other);
  });
});

describe('insertPostIntoPages', () => {
  const newest = makePost({ _id: 'newest', createdAt: at(12) });
  const middle = makePost({ _id: 'middle', createdAt: at(8) });
  const oldest = makePost({ _id: 'oldest', createdAt: at(2) });

  it('puts a post at its place by date, in the page holding that place', () => {
    const data = pages({ posts: [newest], nextCursor: 'c' }, { posts: [oldest] });
    expect(ids(insertPostIntoPages(data, middle, 'latest'))).toEqual([
      ['newest'],
      ['middle', 'oldest'],
    ]);
    const fresh = makePost({ _id: 'fresh', createdAt: at(20) });
    expect(ids(insertPostIntoPages(data, fresh, 'latest'))[0]).toEqual(['fresh', 'newest']);
  });

  it('leaves a post whose place is beyond the loaded pages to the next page', () => {
    const data = pages({ posts: [oldest, middle], nextCursor: 'more' });
    expect(insertPostIntoPages(data, newest, 'oldest')).toBe(data);
    const complete = pages({ posts: [oldest, middle] });
    expect(ids(insertPostIntoPages(complete, newest, 'oldest'))).toEqual([
      ['oldest', 'middle', 'newest'],
    ]);
  });

  it('orders trending by likes, then newest', () => {
    const popular = makePost({
      _id: 'popular',
      likes: { likeCount: 9, likedBy: [], dislikedBy: [] },
    });
    const data = pages({ posts: [popular, oldest] });
    expect(ids(insertPostIntoPages(data, newest, 'trending'))).toEqual([
      ['popular', 'newest', 'oldest'],
    ]);
    expect(comparePosts(popular, newest, 'trending')).toBeLessThan(0);
  });

  it('puts a post first with "top" and never twice', () => {
    const data = pages({ posts: [newest, oldest] });
    expect(ids(insertPostIntoPages(data, middle, 'top'))).toEqual([['middle', 'newest', 'oldest']]);
    expect(insertPostIntoPages(data, oldest, 'top')).toBe(data);
  });
});

describe('list membership', () => {
  it('inserts into the lists the filter accepts, removes, and puts back where it was', () => {
    const client = new QueryClient();
    const liked = postKeys.list({ kind: 'liked' }, 'latest');
    const home = postKeys.list({ kind: 'home' }, 'latest');
    const a = makePost({ _id: 'a', createdAt: at(10) });
    const b = makePost({ _id: 'b', createdAt: at(5) });
    client.setQueryData(liked, pages({ posts: [a] }));
    client.setQueryData(home, pages({ posts: [a] }));

    insertPostIntoLists(client, b, isSource('liked'));
    expect(ids(client.getQueryData(liked))).toEqual([['a', 'b']]);
    expect(ids(client.getQueryData(home))).toEqual([['a']]);

    const removed = removePostFromLists(client, 'a');
    expect(ids(client.getQueryData(liked))).toEqual([['b']]);
    expect(ids(client.getQueryData(home))).toEqual([[]]);

    restoreRemovedPosts(client, removed);
    expect(ids(client.getQueryData(liked))).toEqual([['a', 'b']]);
    expect(ids(client.getQueryData(home))).toEqual([['a']]);
  });

  it('flattens pages without repeating a post', () => {
    const a = makePost({ _id: 'a' });
    const b = makePost({ _id: 'b' });
    expect(flattenPages(pages({ posts: [a, b] }, { posts: [b] })).map((p) => p._id)).toEqual([
      'a',
      'b',
    ]);
    expect(flattenPages(undefined)).toEqual([]);
  });
});
