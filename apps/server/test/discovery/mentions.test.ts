import { commentMutationResponseSchema } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drain } from '../events/event-helpers';
import { createMember, type Member } from '../factories';
import { createTestApp, type TestApp } from '../helpers';
import { groupsOf, markAllRead, unreadOf } from '../notifications/notification-helpers';
import {
  addComment,
  bodyOf,
  createPost,
  deleteComment,
  deletePost,
  editComment,
} from '../social/social-helpers';
import { editPost, editRequest } from './discovery-helpers';

let t: TestApp;
let alice: Member;
let bob: Member;
let carol: Member;
let dave: Member;
beforeAll(async () => {
  t = await createTestApp();
  alice = await createMember(t.app, { username: 'alice_m' });
  bob = await createMember(t.app, { username: 'Bob_M' });
  carol = await createMember(t.app, { username: 'carol_m' });
  dave = await createMember(t.app, { username: 'dave_m' });
});
afterAll(async () => {
  await t.close();
});

/** The member's mention notifications as their page groups them. */
const mentionGroups = async (member: Member) =>
  (await groupsOf(t.app, member)).filter((group) => group.kind === 'mention');

/** The member's mention notification rows about the post (or comment), once all is handled. */
async function mentionRows(member: Member, postId: string, commentId: string | null = null) {
  await drain(t.app);
  let query = t.app.db
    .selectFrom('notifications')
    .select(['actor_id', 'post_id', 'comment_id'])
    .where('recipient_id', '=', member.user._id)
    .where('kind', '=', 'mention')
    .where('post_id', '=', postId);
  query =
    commentId === null
      ? query.where('comment_id', 'is', null)
      : query.where('comment_id', '=', commentId);
  return query.execute();
}

describe('mention notifications', () => {
  it('tells a member mentioned in a post, once however often named', async () => {
    const content = 'Hello @bob_m! And again @BOB_M, @Bob_M.';
    const post = await createPost(t.app, alice.token, content);
    const groups = await mentionGroups(bob);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({
      kind: 'mention',
      actorCount: 1,
      post: { _id: post._id, content, mediaURL: null },
      comment: null,
      read: false,
    });
    expect(groups[0]?.actors.map((actor) => actor._id)).toEqual([alice.user._id]);
    expect(await mentionRows(bob, post._id)).toEqual([
      { actor_id: alice.user._id, post_id: post._id, comment_id: null },
    ]);
    expect(await mentionGroups(carol)).toEqual([]);
    await markAllRead(t.app, bob);
  });

  it('tells a member mentioned in a comment, about that comment', async () => {
    const post = await createPost(t.app, alice.token, 'a post without mentions');
    const comment = await addComment(t.app, carol.token, post._id, 'cc @dave_m');
    const groups = await mentionGroups(dave);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({
      post: { _id: post._id },
      comment: { _id: comment._id, text: 'cc @dave_m' },
    });
    expect(groups[0]?.actors.map((actor) => actor._id)).toEqual([carol.user._id]);
    expect(await mentionRows(dave, post._id, comment._id)).toHaveLength(1);
    await markAllRead(t.app, dave);
  });

  it('never tells the author of their own mention, nor anybody of an unknown name', async () => {
    const before = await unreadOf(t.app, alice);
    const post = await createPost(t.app, alice.token, 'note to self @alice_m, and @nobody_m_here');
    expect(post.entities.map((entity) => entity.type)).toEqual(['mention']);
    await addComment(t.app, alice.token, post._id, 'me again @ALICE_M');
    expect(await mentionRows(alice, post._id)).toEqual([]);
    expect(await unreadOf(t.app, alice)).toBe(before);
    await drain(t.app);
    const all = await t.app.db
      .selectFrom('notifications')
      .select('recipient_id')
      .where('post_id', '=', post._id)
      .execute();
    expect(all).toEqual([]);
  });

  it('does not tell again on an edit that keeps or names again the same member', async () => {
    const post = await createPost(t.app, alice.token, 'ping @carol_m');
    expect(await mentionRows(carol, post._id)).toHaveLength(1);
    await markAllRead(t.app, carol);

    await editPost(t.app, alice.token, post._id, 'ping @carol_m, edited');
    await editPost(t.app, alice.token, post._id, 'nobody named now');
    await editPost(t.app, alice.token, post._id, 'ping @CAROL_M once more');
    expect(await mentionRows(carol, post._id)).toHaveLength(1);
    expect(await unreadOf(t.app, carol)).toBe(0);

    const comment = await addComment(t.app, bob.token, post._id, 'hey @carol_m');
    await editComment(t.app, bob.token, post._id, comment._id, 'hey there');
    const response = await editComment(t.app, bob.token, post._id, comment._id, 'hey @carol_m!');
    bodyOf(commentMutationResponseSchema, response, 201);
    expect(await mentionRows(carol, post._id, comment._id)).toHaveLength(1);
    expect(await unreadOf(t.app, carol)).toBe(1);
    await markAllRead(t.app, carol);
  });

  it('tells only the newly named member after an edit', async () => {
    const post = await createPost(t.app, alice.token, 'hi @bob_m');
    expect(await mentionRows(bob, post._id)).toHaveLength(1);
    await editPost(t.app, alice.token, post._id, 'hi @bob_m and @dave_m');
    expect(await mentionRows(bob, post._id)).toHaveLength(1);
    expect(await mentionRows(dave, post._id)).toHaveLength(1);
    expect(await mentionRows(carol, post._id)).toEqual([]);

    const comment = await addComment(t.app, carol.token, post._id, 'thanks @alice_m');
    await editComment(t.app, carol.token, post._id, comment._id, 'thanks @alice_m and @bob_m');
    expect(await mentionRows(alice, post._id, comment._id)).toHaveLength(1);
    expect(await mentionRows(bob, post._id, comment._id)).toHaveLength(1);
    expect(await mentionRows(dave, post._id, comment._id)).toEqual([]);
  });

  it('tells a member once when racing edits all name them', async () => {
    const post = await createPost(t.app, bob.token, 'soon naming someone');
    const responses = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        editRequest(t.app, bob.token, post._id, { content: `v${i} @dave_m` }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    expect(await mentionRows(dave, post._id)).toHaveLength(1);
    expect(await mentionRows(bob, post._id)).toEqual([]);
  });

  it('takes the notification away with the post or the comment', async () => {
    const post = await createPost(t.app, carol.token, 'going soon, @dave_m');
    const comment = await addComment(t.app, alice.token, post._id, 'and you @bob_m');
    expect(await mentionRows(dave, post._id)).toHaveLength(1);
    expect(await mentionRows(bob, post._id, comment._id)).toHaveLength(1);

    expect((await deleteComment(t.app, alice.token, post._id, comment._id)).statusCode).toBe(201);
    expect(await mentionRows(bob, post._id, comment._id)).toEqual([]);
    expect(
      (await mentionGroups(bob)).filter((group) => group.comment?._id === comment._id),
    ).toEqual([]);

    expect((await deletePost(t.app, carol.token, post._id)).statusCode).toBe(201);
    expect(await mentionRows(dave, post._id)).toEqual([]);
    expect((await mentionGroups(dave)).filter((group) => group.post?._id === post._id)).toEqual([]);
  });

  it('leaves no notification of a post deleted right after it was written', async () => {
    const post = await createPost(t.app, bob.token, 'short-lived @carol_m');
    expect((await deletePost(t.app, bob.token, post._id)).statusCode).toBe(201);
    expect(await mentionRows(carol, post._id)).toEqual([]);
  });
});
