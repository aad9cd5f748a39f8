import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { server } from '../../test/server';
import { makePost } from '../../entities/post/posts.mocks';
import { enqueue, queuedPostsOf } from '../../shared/offlineQueue/postQueue';
import { sendQueued } from './offlineQueue';
import { queuedPosts } from '../../shared/offlineQueue/queueStore';

const queued = (id: string, content: string) => ({
  id,
  memberId: 'member-1',
  content,
  image: null,
  altText: '',
  queuedAt: Date.now(),
});

describe('the offline queue', () => {
  it('sends queued posts in order under their keys, and keeps them while unreachable', async () => {
    await enqueue(queued('key-first-0001', 'first'));
    await enqueue(queued('key-second-002', 'second'));
    expect(queuedPostsOf('member-1').map((post) => post.content)).toEqual(['first', 'second']);

    const keys: (string | null)[] = [];
    let reachable = false;
    server.use(
      http.post('/api/posts', async ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        if (!reachable) return HttpResponse.error();
        const body = (await request.json()) as { postData: { content: string } };
        return HttpResponse.json(
          { post: makePost({ content: body.postData.content }) },
          { status: 201 },
        );
      }),
    );
    const sent: string[] = [];
    const refused: string[] = [];
    const hooks = {
      sent: (post: { content: string }) => sent.push(post.content),
      refused: (post: { content: string }) => refused.push(post.content),
    };

    await sendQueued('member-1', 'token', hooks);
    expect(keys).toEqual(['key-first-0001']);
    expect((await queuedPosts('member-1')).map((post) => post.content)).toEqual([
      'first',
      'second',
    ]);

    reachable = true;
    await sendQueued('member-1', 'token', hooks);
    expect(keys).toEqual(['key-first-0001', 'key-first-0001', 'key-second-002']);
    expect(sent).toEqual(['first', 'second']);
    expect(refused).toEqual([]);
    expect(await queuedPosts('member-1')).toEqual([]);
    expect(queuedPostsOf('member-1')).toEqual([]);
  });

  it('drops a post the server refuses for good, and says so', async () => {
    await enqueue(queued('key-refused-01', 'refused'));
    server.use(
      http.post('/api/posts', () =>
        HttpResponse.json({ errors: ['A post needs some text or an image.'] }, { status: 400 }),
      ),
    );
    const refused: string[] = [];
    await sendQueued('member-1', 'token', {
      sent: () => undefined,
      refused: (post) => refused.push(post.content),
    });
    expect(refused).toEqual(['refused']);
    expect(await queuedPosts('member-1')).toEqual([]);
  });
});
