import type { AddressInfo } from 'node:net';
import { GUEST_CREDENTIALS } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers';
import { SpecClient, type SpecPost, type SpecSort } from './spec-client';

/**
 * A client that follows the product specification to the letter walks Perch over real HTTP, on
 * the demo community: every decision it makes comes from the arrays the spec's entities carry.
 */

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp({ seedDemoData: true });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
});

const lastToast = (client: SpecClient) => client.toasts.at(-1);
const find = (posts: readonly SpecPost[], id: string) => posts.find((post) => post._id === id);

async function guest(): Promise<SpecClient> {
  const client = new SpecClient(baseUrl);
  expect(await client.login(GUEST_CREDENTIALS.username, GUEST_CREDENTIALS.password)).toBe(true);
  return client;
}

let sequence = 0;
async function newMember(firstName = 'Spec'): Promise<SpecClient> {
  sequence += 1;
  const client = new SpecClient(baseUrl);
  const username = `spec_${process.pid}_${sequence}`;
  const signedUp = await client.signup({
    firstName,
    lastName: 'Client',
    email: `${username}@example.com`,
    username,
    password: 'spec-client-password',
    confirmPassword: 'spec-client-password',
  });
  expect(signedUp).toBe(true);
  return client;
}

const followRows = async (userId: string) => {
  const count = (column: 'followee_id' | 'follower_id') =>
    t.app.db
      .selectFrom('follows')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where(column, '=', userId)
      .executeTakeFirstOrThrow();
  const [followers, following] = await Promise.all([count('followee_id'), count('follower_id')]);
  return { followers: Number(followers.n), following: Number(following.n) };
};

describe('a client written to the spec', () => {
  it('logs in, as the guest too, with the spec toasts for bad input', async () => {
    const client = new SpecClient(baseUrl);
    expect(await client.login('', '')).toBe(false);
    expect(lastToast(client)).toBe('Please fill all inputfields');
    expect(await client.login(GUEST_CREDENTIALS.username, 'wrong password')).toBe(false);
    expect(lastToast(client)).toBe('Invalid username and password');

    const signedIn = await guest();
    expect(lastToast(signedIn)).toBe(`Welcome back, ${signedIn.currentUser?.firstName ?? ''}!`);
    expect(signedIn.currentUser?.following.map((u) => u.username).sort()).toEqual([
      'ada_okafor',
      'sofia_m',
    ]);
  });

  it('signs up, refusing a mismatched confirmation without a call', async () => {
    const client = new SpecClient(baseUrl);
    const fields = {
      firstName: 'Mia',
      lastName: 'Match',
      email: 'mia@example.com',
      username: `mia_${process.pid}`,
      password: 'one password',
      confirmPassword: 'another one',
    };
    expect(await client.signup(fields)).toBe(false);
    expect(lastToast(client)).toBe('Your password and confirmation password do not match.');
    expect(await client.login(fields.username, fields.password)).toBe(false);

    expect(await client.signup({ ...fields, confirmPassword: fields.password })).toBe(true);
    expect(lastToast(client)).toBe('Hey! Mia');
    expect(client.currentUser).toMatchObject({ followers: [], following: [] });
  });

  it('loads the feed without a token and sorts it three ways', async () => {
    const client = await guest();
    await client.loadPosts();
    expect(client.posts.length).toBeGreaterThan(3);
    const likes = client.sorted(client.posts, 'Trending').map((p) => p.likes.likeCount);
    expect(likes).toEqual([...likes].sort((a, b) => b - a));
    const times = (sort: SpecSort) =>
      client.sorted(client.posts, sort).map((p) => Date.parse(p.createdAt));
    expect(times('Latest')).toEqual([...times('Latest')].sort((a, b) => b - a));
    expect(times('Oldest')).toEqual([...times('Latest')].reverse());
    const followed = new Set(['guest', 'ada_okafor', 'sofia_m']);
    expect(client.homeFeed().length).toBeGreaterThan(0);
    for (const post of client.homeFeed()) expect(followed.has(post.username)).toBe(true);
    for (const post of client.posts) expect(Array.isArray(post.comments)).toBe(true);
  });

  it('sees its likes on a fresh load, read without a token, and toggles them', async () => {
    const client = await newMember();
    await client.loadPosts();
    const target = client.posts.find((post) => !client.isLiked(post));
    if (!target) throw new Error('the demo feed has no post to like');

    expect(await client.toggleLike(target)).toBe(true);
    const liked = find(client.posts, target._id);
    expect(liked && client.isLiked(liked)).toBe(true);
    expect(liked?.likes.likeCount).toBe(target.likes.likeCount + 1);

    const reloaded = client.reload();
    await reloaded.loadPosts();
    const seen = find(reloaded.posts, target._id);
    expect(seen && reloaded.isLiked(seen)).toBe(true);
    expect(reloaded.likedPosts().map((post) => post._id)).toEqual([target._id]);

    // A stale tab likes it again: refused with the spec's message.
    expect(await client.like(target)).toBe(false);
    expect(lastToast(client)).toBe('Cannot like a post that is already liked.');

    expect(await reloaded.toggleLike(seen ?? target)).toBe(true);
    const unliked = find(reloaded.posts, target._id);
    expect(unliked && reloaded.isLiked(unliked)).toBe(false);
    expect(reloaded.likedPosts()).toEqual([]);
  });

  it('bookmarks and unbookmarks, with the spec toasts', async () => {
    const client = await newMember();
    await client.loadPosts();
    await client.loadBookmarks();
    const post = client.posts[0];
    if (!post) throw new Error('no posts');
    expect(client.isBookmarked(post)).toBe(false);

    expect(await client.toggleBookmark(post)).toBe(true);
    expect(lastToast(client)).toBe('Added to bookmarks.');
    expect(client.isBookmarked(post)).toBe(true);
    expect(client.bookmarks.map((saved) => saved._id)).toEqual([post._id]);

    const staleTab = client.reload();
    expect(await staleTab.toggleBookmark(post)).toBe(false);
    expect(lastToast(staleTab)).toBe('Post is already bookmarked.');

    expect(await client.toggleBookmark(post)).toBe(true);
    expect(client.bookmarks).toEqual([]);
  });

  it('adds, edits and deletes comments, shown from post.comments', async () => {
    const author = await newMember('Author');
    expect(await author.createPost('Comment on this, please')).toBe(true);
    expect(lastToast(author)).toBe('New post created');
    const post = author.posts.find((p) => p.username === author.currentUser?.username);
    if (!post) throw new Error('the new post is not in the answer');
    expect(post.comments).toEqual([]);

    expect(await author.addComment(post, 'My own first comment')).toBe(true);
    const withComment = find(author.posts, post._id);
    expect(withComment?.comments.map((c) => c.text)).toEqual(['My own first comment']);
    const comment = withComment?.comments[0];
    if (!withComment || !comment) throw new Error('no comment');

    expect(await author.editComment(withComment, comment, 'Edited comment')).toBe(true);
    expect(lastToast(author)).toBe('Post edited');
    expect(find(author.posts, post._id)?.comments.map((c) => c.text)).toEqual(['Edited comment']);

    // Someone else comments; the post's author may delete it (spec section 5).
    const visitor = await guest();
    await visitor.loadPosts();
    const seen = find(visitor.posts, post._id);
    if (!seen) throw new Error('the post is not in the feed');
    expect(await visitor.addComment(seen, 'Nice post')).toBe(true);
    await author.loadPosts();
    const both = find(author.posts, post._id);
    expect(both?.comments.map((c) => c.text)).toEqual(['Edited comment', 'Nice post']);
    const theirs = both?.comments[1];
    if (!both || !theirs) throw new Error('no comment from the visitor');
    expect(await author.deleteComment(both, theirs)).toBe(true);
    expect(lastToast(author)).toBe('Comment deleted');
    expect(find(author.posts, post._id)?.comments.map((c) => c.text)).toEqual(['Edited comment']);

    expect(await author.editPost(find(author.posts, post._id) ?? post, 'Edited post')).toBe(true);
    expect(find(author.posts, post._id)?.content).toBe('Edited post');
    expect(await author.deletePost(find(author.posts, post._id) ?? post)).toBe(true);
    expect(lastToast(author)).toBe('Post Deleted');
    expect(find(author.posts, post._id)).toBeUndefined();
  });

  it('follows and unfollows from a profile, with counts from the arrays', async () => {
    const client = await newMember();
    await client.loadUsers();
    const me = client.currentUser;
    const suggested = client.whoToFollow();
    expect(suggested.map((u) => u.username)).not.toContain(me?.username);
    const target = suggested.find((user) => user.username === 'liamchen');
    if (!target) throw new Error('liamchen is not suggested');
    expect(client.search('LIAM').map((u) => u.username)).toContain('liamchen');

    await client.loadProfile(target.username);
    const profile = client.userDetails;
    if (!profile) throw new Error('no profile');
    const before = await followRows(target._id);
    expect(client.profileCounts(profile)).toEqual(before);
    expect(client.followsProfile(profile)).toBe(false);

    expect(await client.toggleFollow(profile)).toBe(true);
    expect(lastToast(client)).toBe('Followed @liamchen');
    expect(client.currentUser?.following.map((u) => u.username)).toEqual(['liamchen']);
    expect(client.whoToFollow().map((u) => u.username)).not.toContain('liamchen');
    const after = client.userDetails;
    if (!after) throw new Error('no profile');
    expect(client.followsProfile(after)).toBe(true);
    expect(client.profileCounts(after)).toEqual({ ...before, followers: before.followers + 1 });

    // A fresh load of the profile, read without a token, says the same.
    const reloaded = client.reload();
    await reloaded.loadProfile('liamchen');
    const fresh = reloaded.userDetails;
    if (!fresh) throw new Error('no profile');
    expect(reloaded.followsProfile(fresh)).toBe(true);
    expect(reloaded.profileCounts(fresh)).toEqual(await followRows(target._id));

    expect(await client.toggleFollow(after)).toBe(true);
    expect(lastToast(client)).toBe('Unfollowed @liamchen');
    expect(client.currentUser?.following).toEqual([]);
    expect(client.profileCounts(client.userDetails ?? after)).toEqual(before);
  });

  it('edits its profile and replaces its current user with the answer', async () => {
    const client = await newMember();
    await client.loadUsers();
    const someone = client.whoToFollow()[0];
    if (!someone) throw new Error('no one to follow');
    await client.toggleFollow(someone);
    expect(await client.editProfile({ firstName: 'Renamed', lastName: 'Person', bio: 'Hi' })).toBe(
      true,
    );
    expect(lastToast(client)).toBe('Pofile edited');
    expect(client.currentUser).toMatchObject({
      firstName: 'Renamed',
      lastName: 'Person',
      bio: 'Hi',
    });
    expect(client.currentUser?.following.map((u) => u.username)).toEqual([someone.username]);
  });

  it('shows Perch refusing an image from another host with a message it can show', async () => {
    const client = await newMember();
    for (const mediaURL of ['https://res.cloudinary.com/demo/image/upload/x.png', 'blob:x']) {
      expect(await client.createPost('Look at this', mediaURL)).toBe(false);
      expect(lastToast(client)).toBe('Something went wrong, try again!');
    }
  });

  it('logs out, and the next member to log in reads as themselves', async () => {
    const client = await newMember();
    const previous = client.currentUser?.username;
    await client.loadPosts();
    const post = client.posts[0];
    if (!post) throw new Error('no posts');
    await client.toggleLike(post);
    client.logout();
    expect(lastToast(client)).toBe('Logged out successfully!');
    expect([client.token, client.currentUser]).toEqual([null, null]);

    const next = client.reload();
    expect(await next.login(GUEST_CREDENTIALS.username, GUEST_CREDENTIALS.password)).toBe(true);
    await next.loadPosts();
    const likedBy = find(next.posts, post._id)?.likes.likedBy.map((u) => u.username);
    expect(likedBy).toBeDefined();
    expect(likedBy).not.toContain(previous);
  });
});
