import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../test/server';
import { makePost } from '../../entities/post/posts.mocks';
import { queuedToggles } from '../../shared/offlineQueue/queueStore';
import {
  sendOrQueueToggle,
  sendQueuedToggles,
  type Toggle,
} from '../../shared/offlineQueue/toggleQueue';
import { sendToggle } from './sendToggle';

const MEMBER = 'member-1';
type LikeToggle = Extract<Toggle, { kind: 'like' }> & { token: string };
const like = (postId: string, action: LikeToggle['action'] = 'like'): LikeToggle => ({
  kind: 'like',
  action,
  memberId: MEMBER,
  targetId: postId,
  token: 'token',
});

/** Answers likes as the server would, or not at all while `reachable` is false; logs each. */
function likeServer(state: { reachable: boolean; calls: string[]; wait?: number }) {
  server.use(
    http.post('/api/posts/:action/:postId', async ({ params }) => {
      state.calls.push(`${String(params.action)} ${String(params.postId)}`);
      if (state.wait) await delay(state.wait);
      if (!state.reachable) return HttpResponse.error();
      return HttpResponse.json({ post: makePost({ _id: String(params.postId) }) });
    }),
  );
}

const noHooks = { sent: () => undefined, refused: () => undefined };

describe('the toggle queue', () => {
  it('sends at once while the server answers', async () => {
    const state = { reachable: true, calls: [] as string[] };
    likeServer(state);
    const toggle = like('post-a');
    const answer = await sendOrQueueToggle(toggle, sendToggle);
    expect(answer?.post._id).toBe('post-a');
    expect(state.calls).toEqual(['like post-a']);
    expect(await queuedToggles(MEMBER)).toEqual([]);
  });

  it('keeps toggles made out of reach, and a second toggle of a target undoes the first', async () => {
    const state = { reachable: false, calls: [] as string[] };
    likeServer(state);
    for (const toggle of [like('post-a'), like('post-b'), like('post-a', 'dislike')]) {
      expect(await sendOrQueueToggle(toggle, sendToggle)).toBe(null);
    }
    // post-a's like and unlike cancel out without another try: only post-b waits.
    expect(state.calls).toEqual(['like post-a', 'like post-b']);
    expect((await queuedToggles(MEMBER)).map((t) => `${t.action} ${t.targetId}`)).toEqual([
      'like post-b',
    ]);
  });

  it('sends queued toggles in order once reachable, and keeps them while not', async () => {
    const state = { reachable: false, calls: [] as string[] };
    likeServer(state);
    for (const toggle of [like('post-a'), like('post-b')]) {
      await sendOrQueueToggle(toggle, sendToggle);
    }
    const sent: string[] = [];
    const hooks = { ...noHooks, sent: (toggle: Toggle) => sent.push(toggle.targetId) };
    await sendQueuedToggles(MEMBER, 'token', sendToggle, hooks);
    expect(sent).toEqual([]);
    expect(await queuedToggles(MEMBER)).toHaveLength(2);

    state.reachable = true;
    state.calls.length = 0;
    await sendQueuedToggles(MEMBER, 'token', sendToggle, hooks);
    expect(state.calls).toEqual(['like post-a', 'like post-b']);
    expect(sent).toEqual(['post-a', 'post-b']);
    expect(await queuedToggles(MEMBER)).toEqual([]);
  });

  it('drops a toggle the server refuses for good, and says which', async () => {
    const state = { reachable: false, calls: [] as string[] };
    likeServer(state);
    const toggle = like('post-a');
    await sendOrQueueToggle(toggle, sendToggle);
    server.use(
      http.post('/api/posts/like/:postId', () =>
        HttpResponse.json(
          { errors: ['Cannot like a post that is already liked. '] },
          { status: 400 },
        ),
      ),
    );
    const refused: number[] = [];
    await sendQueuedToggles(MEMBER, 'token', sendToggle, {
      ...noHooks,
      refused: (_toggle, error) => refused.push((error as { status: number }).status),
    });
    expect(refused).toEqual([400]);
    expect(await queuedToggles(MEMBER)).toEqual([]);
  });

  it('lets a queued toggle reach the server before a new toggle of the same target', async () => {
    const state = { reachable: false, calls: [] as string[], wait: 0 };
    likeServer(state);
    const first = like('post-a');
    await sendOrQueueToggle(first, sendToggle);
    state.reachable = true;
    state.wait = 50;
    state.calls.length = 0;
    const flush = sendQueuedToggles(MEMBER, 'token', sendToggle, noHooks);
    // Made while the queued like is on its way: it goes after it, to the server.
    await delay(10);
    const second = like('post-a', 'dislike');
    const answer = await sendOrQueueToggle(second, sendToggle);
    await flush;
    expect(state.calls).toEqual(['like post-a', 'dislike post-a']);
    expect(answer).not.toBe(null);
    expect(await queuedToggles(MEMBER)).toEqual([]);
  });
});
