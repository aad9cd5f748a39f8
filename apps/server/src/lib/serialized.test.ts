import { describe, expect, it } from 'vitest';
import { stringifyAnswer, withJson } from './serialized';

describe('stringifyAnswer', () => {
  it('writes what JSON.stringify writes when nothing was serialized ahead', () => {
    const payloads: unknown[] = [
      { posts: [{ a: 1 }], nextCursor: null },
      { errors: ['Bad'] },
      [1, 'two', { three: 3 }],
      'text',
      null,
      { skipped: undefined, fn: () => 1, kept: 0, when: new Date(0) },
      {},
    ];
    for (const payload of payloads) expect(stringifyAnswer(payload)).toBe(JSON.stringify(payload));
  });

  it('uses the registered strings for the payload, its properties and their array items', () => {
    const first = withJson({ id: 'a' }, '{"id":"A"}');
    const second = withJson({ id: 'b' }, '{"id":"B"}');
    expect(stringifyAnswer({ posts: [first, { id: 'c' }, second], nextCursor: 'x' })).toBe(
      '{"posts":[{"id":"A"},{"id":"c"},{"id":"B"}],"nextCursor":"x"}',
    );
    expect(stringifyAnswer({ post: first, gone: undefined, note: 'n' })).toBe(
      '{"post":{"id":"A"},"note":"n"}',
    );
    expect(stringifyAnswer(first)).toBe('{"id":"A"}');
  });

  it('serializes a copy of a registered value anew (answers that add to a post)', () => {
    const post = withJson({ id: 'a' }, '{"id":"A"}');
    const copy = { ...post, comments: [] };
    expect(stringifyAnswer({ posts: [copy] })).toBe('{"posts":[{"id":"a","comments":[]}]}');
  });
});
