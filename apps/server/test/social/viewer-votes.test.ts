import type { Comment, Post } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommentPresenter } from '../../src/read-model/comment/presenter';
import { createViewerVotes } from '../../src/read-model/comment/viewer-votes';
import type { Member } from '../factories';
import { createTestApp, type TestApp } from '../helpers';
import { handOnTo } from '../read-model-views';
import {
  addComment,
  createMembers,
  createPost,
  downvote,
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

const me = (member: Member) => ({
  _id: member.user._id,
  id: member.user._id,
  username: member.user.username,
});

/** Who voted on each embedded comment, as `member` reads the post right now (no relay drain). */
async function votersSeen(post: Post, member: Member) {
  const comments: Comment[] = (await fetchPost(t.app, post._id, member.token)).comments ?? [];
  return comments.map((comment) => ({
    up: comment.votes.upvotedBy.map((voter) => voter._id),
    down: comment.votes.downvotedBy.map((voter) => voter._id),
  }));
}

describe("a reader's kept votes", () => {
  it('show each of their votes in the embedded comments at once', async () => {
    const post = await createPost(t.app, author.token, 'two takes');
    const first = await addComment(t.app, commenter.token, post._id, 'take one');
    const second = await addComment(t.app, commenter.token, post._id, 'take two');
    const id = reader.user._id;
    // Read twice: the reader's votes (none yet) are kept.
    await votersSeen(post, reader);
    expect(await votersSeen(post, reader)).toEqual([
      { up: [], down: [] },
      { up: [], down: [] },
    ]);

    expect((await upvote(t.app, reader.token, post._id, first._id)).statusCode).toBe(201);
    expect(await votersSeen(post, reader)).toEqual([
      { up: [id], down: [] },
      { up: [], down: [] },
    ]);

    expect((await downvote(t.app, reader.token, post._id, first._id)).statusCode).toBe(201);
    expect((await downvote(t.app, reader.token, post._id, second._id)).statusCode).toBe(201);
    expect(await votersSeen(post, reader)).toEqual([
      { up: [], down: [id] },
      { up: [], down: [id] },
    ]);
    // Another reader sees the counts, not the reader's votes.
    const seen = (await fetchPost(t.app, post._id, author.token)).comments?.[0]?.votes;
    expect(seen).toEqual({ upvoteCount: 0, downvoteCount: 1, upvotedBy: [], downvotedBy: [] });
    const own = (await fetchPost(t.app, post._id, reader.token)).comments?.[0]?.votes;
    expect(own?.downvotedBy).toEqual([me(reader)]);
  });
});

describe('votes kept by another process', () => {
  it('are kept until the relay hands on the vote, then read again', async () => {
    const post = await createPost(t.app, author.token, 'elsewhere');
    const comment = await addComment(t.app, commenter.token, post._id, 'vote here');
    const elsewhere = createCommentPresenter({
      reads: t.app.reads,
      maxFirstComments: 100,
      maxVotes: 100,
      maxVotesPerMember: 10,
      hiddenFor: () => Promise.resolve([]),
    });
    const viewer = { id: reader.user._id, username: reader.user.username, sessionId: 's' };
    const read = async () => {
      const threads = await elsewhere.firstCommentsOf([{ id: post._id, commentCount: 1 }], viewer);
      const votes = threads.get(post._id)?.[0]?.votes;
      return votes?.upvotedBy.length ? 1 : undefined;
    };
    expect(await read()).toBeUndefined();

    expect((await upvote(t.app, reader.token, post._id, comment._id)).statusCode).toBe(201);
    // Kept, until the event arrives.
    expect(await read()).toBeUndefined();
    handOnTo({ comments: elsewhere.invalidate })([
      {
        id: 1,
        createdAt: Date.now(),
        type: 'comment.voted',
        payload: {
          postId: post._id,
          commentId: comment._id,
          userId: reader.user._id,
          upvoteCount: 1,
          downvoteCount: 0,
        },
      },
    ]);
    expect(await read()).toBe(1);
  });

  it('ask the database each time for a member with more votes than kept', async () => {
    const post = await createPost(t.app, author.token, 'many votes');
    const [voter] = await createMembers(t.app, 1);
    const comments = [
      await addComment(t.app, commenter.token, post._id, 'one'),
      await addComment(t.app, commenter.token, post._id, 'two'),
    ];
    const elsewhere = createViewerVotes({ reads: t.app.reads, maxVotes: 100, maxPerMember: 1 });
    const ids = comments.map((comment) => comment._id);
    const read = async () => {
      const votes = await elsewhere.of(voter.user._id, ids);
      return ids.map((id) => votes.get(id) ?? null);
    };

    expect((await upvote(t.app, voter.token, post._id, ids[0] ?? '')).statusCode).toBe(201);
    expect((await downvote(t.app, voter.token, post._id, ids[1] ?? '')).statusCode).toBe(201);
    expect(await read()).toEqual([1, -1]);
    // Two votes, past the bound: not kept, so a change is seen without any event.
    expect((await downvote(t.app, voter.token, post._id, ids[0] ?? '')).statusCode).toBe(201);
    expect(await read()).toEqual([-1, -1]);
  });
});
