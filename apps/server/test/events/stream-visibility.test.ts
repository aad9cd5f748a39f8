import type { DomainEventType } from '@perch/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { drain, lastOutboxId } from './event-helpers';
import { closeAllStreams, type SseMessage, type SseStream } from './sse-client';
import {
  readyOf,
  settle,
  startStreamApp,
  type StreamApp,
  type StreamMember,
} from './stream-helpers';
import { block, mute } from '../safety/safety-helpers';
import {
  addComment,
  createPost,
  deletePost,
  editComment,
  editProfile,
  follow,
  like,
  upvote,
} from '../social/social-helpers';
import { call } from '../helpers';

let s: StreamApp;
beforeAll(async () => {
  s = await startStreamApp();
});
afterEach(() => {
  closeAllStreams();
});
afterAll(async () => {
  closeAllStreams();
  await s.close();
});

const expectStatus = (response: { statusCode: number; body: string }, status: number) => {
  expect(response.statusCode, response.body).toBe(status);
};
const expectDone = (response: { statusCode: number; body: string }) => {
  expect(response.statusCode, response.body).toBeLessThan(300);
};

/** Deletions name no one: a copy already shown must always be taken down. */
const DELETIONS: readonly string[] = ['post.deleted', 'comment.deleted'];

/** The events of this stream whose data names the member anywhere, deletions left out. */
const naming = (stream: SseStream, memberId: string): SseMessage[] =>
  stream.messages.filter(
    (message) =>
      message.event !== 'ready' &&
      !DELETIONS.includes(message.event) &&
      JSON.stringify(message.data).includes(`"${memberId}"`),
  );

async function fourMembers(): Promise<[StreamMember, StreamMember, StreamMember, StreamMember]> {
  return [await s.member(), await s.member(), await s.member(), await s.member()];
}

const typesOf = (messages: readonly SseMessage[]) => new Set(messages.map((m) => m.event));

/**
 * Everything `actor` does that the stream carries: a post (new, edited, liked by `other`,
 * commented on), a comment of theirs on `other`'s post (edited, voted on), a follow, a mention,
 * a profile edit, then the post's deletion.
 */
async function actAll(actor: StreamMember, other: StreamMember): Promise<DomainEventType[]> {
  const post = await createPost(s.app, actor.token, `mentioning @${other.user.username}`);
  expectDone(
    await call(s.app, {
      method: 'POST',
      url: `/api/posts/edit/${post._id}`,
      token: actor.token,
      payload: { postData: { content: 'edited' } },
    }),
  );
  expectStatus(await like(s.app, other.token, post._id), 201);
  await addComment(s.app, other.token, post._id, 'a comment on it');
  const otherPost = await createPost(s.app, other.token, 'the other one');
  const comment = await addComment(s.app, actor.token, otherPost._id, 'mine');
  expectDone(await editComment(s.app, actor.token, otherPost._id, comment._id, 'mine, edited'));
  expectDone(await upvote(s.app, actor.token, otherPost._id, comment._id));
  expectStatus(await like(s.app, actor.token, otherPost._id), 201);
  expectDone(await follow(s.app, actor.token, other.user._id));
  await editProfile(s.app, actor.token, { firstName: 'Renamed', lastName: 'Member' });
  expectDone(await deletePost(s.app, actor.token, post._id));
  await drain(s.app);
  return [
    'post.edited',
    'post.liked',
    'comment.added',
    'comment.edited',
    'comment.voted',
    'member.followed',
    'members.mentioned',
    'profile.edited',
  ];
}

describe('blocks and mutes on the stream', () => {
  it('a block keeps either member’s doings from the other’s stream, live and replayed', async () => {
    const [blocker, blocked, bystander, other] = await fourMembers();
    await block(s.app, blocker, blocked);
    await drain(s.app);
    const from = await lastOutboxId(s.app);
    const streams = await Promise.all([blocked, blocker, bystander].map((m) => s.connect(m)));
    await Promise.all(streams.map(readyOf));
    const [ofBlocked, ofBlocker, ofBystander] = streams as [SseStream, SseStream, SseStream];

    const types = await actAll(blocker, other);
    await actAll(blocked, other);
    await settle(s, ...streams);

    // The bystander heard every kind of doing of both, so the streams below had them to refuse.
    for (const member of [blocker, blocked]) {
      const heard = typesOf(naming(ofBystander, member.user._id));
      for (const type of types) expect(heard, type).toContain(type);
    }
    expect(naming(ofBlocked, blocker.user._id)).toEqual([]);
    expect(naming(ofBlocker, blocked.user._id)).toEqual([]);
    // The deletion still reaches the blocked member.
    expect(ofBlocked.messages.some((m) => m.event === 'post.deleted')).toBe(true);

    // A reconnect replays by the same rules.
    const replayed = await s.connect(blocked, { 'last-event-id': String(from) });
    await readyOf(replayed);
    await settle(s, replayed);
    expect(replayed.messages.filter((m) => m.event === 'post.liked').length).toBeGreaterThan(0);
    expect(naming(replayed, blocker.user._id)).toEqual([]);
  });

  it('a mute keeps the muted member’s doings from the muter’s stream only', async () => {
    const [muter, muted, other] = await fourMembers();
    expectStatus(await follow(s.app, muter.token, muted.user._id), 200);
    await mute(s.app, muter, muted);
    await drain(s.app);
    const streams = await Promise.all([muter, muted].map((m) => s.connect(m)));
    await Promise.all(streams.map(readyOf));
    const [ofMuter, ofMuted] = streams as [SseStream, SseStream];

    const types = await actAll(muted, other);
    await actAll(muter, other);
    await settle(s, ...streams);

    // Followed but muted: not even the new post reaches the muter.
    expect(naming(ofMuter, muted.user._id)).toEqual([]);
    const heard = typesOf(naming(ofMuted, muter.user._id));
    for (const type of types) expect(heard, type).toContain(type);
  });
});
