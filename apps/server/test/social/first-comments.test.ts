import { EMBEDDED_COMMENTS_MAX, type Comment, type Post } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommentPresenter } from '../../src/read-model/comment/presenter';
import type { Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import { handOnTo } from '../read-model-views';
import { mute } from '../safety/safety-helpers';
import { insertComments } from './bulk';
import {
  addComment,
  createMembers,
  createPost,
  deleteComment,
  editComment,
  fetchPost,
  upvote,
} from './social-helpers';

let t: TestApp;
let author: Member;
let reader: Member;
let commenter: Member;
beforeAll(async () => {
  t = await createTestApp();
  [author, reader, commenter] = await createMembers(t.app, 3);
});
afterAll(() => t.close());

/**
 * The post's embedded comments as `member` reads them: after the events of earlier writes have
 * reached the cache, and read twice, so that they are kept and a change must drop them.
 */
async function embedded(post: Post, member: Member): Promise<Comment[]> {
  await t.app.services.relay.drain();
  await fetchPost(t.app, post._id, member.token);
  return (await fetchPost(t.app, post._id, member.token)).comments ?? [];
}

describe("a post's kept first comments", () => {
  it('show a new comment, an edit, a vote and a deletion at once', async () => {
    const post = await createPost(t.app, author.token, 'talk to me');
    const first = await addComment(t.app, commenter.token, post._id, 'first');
    expect((await embedded(post, reader)).map((c) => c.text)).toEqual(['first']);

    const second = await addComment(t.app, author.token, post._id, 'second');
    expect((await embedded(post, reader)).map((c) => c.text)).toEqual(['first', 'second']);

    expect(
      (await editComment(t.app, commenter.token, post._id, first._id, 'first, edited')).statusCode,
    ).toBe(201);
    expect((await embedded(post, reader))[0]?.text).toBe('first, edited');

    expect((await upvote(t.app, author.token, post._id, first._id)).statusCode).toBe(201);
    const seen = (await embedded(post, reader))[0]?.votes;
    expect(seen).toEqual({ upvoteCount: 1, downvoteCount: 0, upvotedBy: [], downvotedBy: [] });

    expect((await deleteComment(t.app, author.token, post._id, second._id)).statusCode).toBe(201);
    expect((await embedded(post, reader)).map((c) => c._id)).toEqual([first._id]);
  });

  it('show each reader their own vote only, over the counts everyone sees', async () => {
    const post = await createPost(t.app, author.token, 'vote on it');
    const comment = await addComment(t.app, commenter.token, post._id, 'up or down?');
    await embedded(post, author);
    expect((await upvote(t.app, reader.token, post._id, comment._id)).statusCode).toBe(201);

    const me = { _id: reader.user._id, id: reader.user._id, username: reader.user.username };
    expect((await embedded(post, reader))[0]?.votes).toEqual({
      upvoteCount: 1,
      downvoteCount: 0,
      upvotedBy: [me],
      downvotedBy: [],
    });
    expect((await embedded(post, author))[0]?.votes.upvotedBy).toEqual([]);
    expect((await fetchPost(t.app, post._id)).comments?.[0]?.votes.upvotedBy).toEqual([]);
  });

  it("show a commenter's new name once the change is relayed", async () => {
    const [renamed] = await createMembers(t.app, 1);
    const post = await createPost(t.app, author.token, 'who said that?');
    await addComment(t.app, renamed.token, post._id, 'me');
    expect((await embedded(post, reader))[0]?.firstName).toBe(renamed.user.firstName);

    const edit = await call(t.app, {
      method: 'POST',
      url: '/api/users/edit',
      token: renamed.token,
      payload: { userData: { firstName: 'Newname', lastName: renamed.user.lastName } },
    });
    expect(edit.statusCode).toBe(200);
    await t.app.services.relay.drain();
    expect((await embedded(post, reader))[0]?.firstName).toBe('Newname');
  });

  it('leave out a member the reader muted, the next comment taking their place', async () => {
    const [muted, muter] = await createMembers(t.app, 2);
    const post = await createPost(t.app, author.token, 'busy thread');
    const commenters = Array.from({ length: EMBEDDED_COMMENTS_MAX + 1 }, (_, i) =>
      i === 0 ? muted.user._id : commenter.user._id,
    );
    await insertComments(t.app, post._id, commenters, (i) => `said ${i}`);
    const everyone = await embedded(post, reader);
    expect(everyone.map((c) => c.text)).toEqual(
      Array.from({ length: EMBEDDED_COMMENTS_MAX }, (_, i) => `said ${i}`),
    );

    await mute(t.app, muter, muted);
    const shown = await embedded(post, muter);
    expect(shown.map((c) => c.text)).toEqual(
      Array.from({ length: EMBEDDED_COMMENTS_MAX }, (_, i) => `said ${i + 1}`),
    );
    expect((await embedded(post, reader)).map((c) => c.text)).toEqual(everyone.map((c) => c.text));
  });
});

describe('first comments kept by another process', () => {
  it('are dropped when the relay hands on the events that changed them', async () => {
    const post = await createPost(t.app, author.token, 'elsewhere');
    const comment = await addComment(t.app, commenter.token, post._id, 'as written');
    const elsewhere = createCommentPresenter({
      reads: t.app.reads,
      maxFirstComments: 100,
      maxVotes: 100,
      maxVotesPerMember: 10,
      hiddenFor: () => Promise.resolve([]),
    });
    const read = async () =>
      (await elsewhere.firstCommentsOf([{ id: post._id, commentCount: 1 }], null)).get(
        post._id,
      )?.[0]?.text;
    expect(await read()).toBe('as written');

    await editComment(t.app, commenter.token, post._id, comment._id, 'as rewritten');
    // Kept, until the event arrives.
    expect(await read()).toBe('as written');
    handOnTo({ comments: elsewhere.invalidate })([
      {
        id: 1,
        createdAt: Date.now(),
        type: 'comment.edited',
        payload: { postId: post._id, commentId: comment._id, userId: commenter.user._id },
      },
    ]);
    expect(await read()).toBe('as rewritten');
  });
});
