import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  answerJson,
  compileJson,
  extended,
  joinedObjects,
  jsonOf,
  ownCopy,
  withJson,
} from './serialized';

/** The answer as text, whether it was written as a string or as bytes. */
const stringifyAnswer = (payload: unknown) => String(answerJson(payload));

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
    // The registration is invisible to everything else.
    expect(Object.keys(first)).toEqual(['id']);
    expect(JSON.stringify(first)).toBe('{"id":"a"}');
    expect(structuredClone(first)).toEqual({ id: 'a' });
  });

  it('serializes a copy of a registered value anew (answers that add to a post)', () => {
    const post = withJson({ id: 'a' }, '{"id":"A"}');
    const copy = { ...post, comments: [] };
    expect(stringifyAnswer({ posts: [copy] })).toBe('{"posts":[{"id":"a","comments":[]}]}');
  });

  it('extends a registered value with its JSON and the addition written after it', () => {
    const post = withJson({ id: 'a' }, '{"id":"A"}');
    const comments = [{ text: 'hi "there"' }];
    const copy = extended(post, 'comments', comments);
    expect(copy).toEqual({ id: 'a', comments });
    expect(stringifyAnswer({ posts: [copy] })).toBe(
      '{"posts":[{"id":"A","comments":[{"text":"hi \\"there\\""}]}]}',
    );
    expect(stringifyAnswer(extended(withJson({}, '{}'), 'x', 1))).toBe('{"x":1}');
  });

  it('extends an unregistered value with its JSON written now, and added items with theirs', () => {
    const stub = withJson({ id: 's' }, '{"id":"S"}');
    const user = extended(
      extended({ name: 'n' }, 'followers', [stub, { id: 't' }]),
      'following',
      [],
    );
    expect(user).toEqual({ name: 'n', followers: [{ id: 's' }, { id: 't' }], following: [] });
    expect(stringifyAnswer({ user })).toBe(
      '{"user":{"name":"n","followers":[{"id":"S"},{"id":"t"}],"following":[]}}',
    );
  });

  it('extends anything else to what JSON.stringify writes', () => {
    const known = withJson({ id: 'a', comments: [] as number[] }, '{"id":"A","comments":[]}');
    const cases = [
      extended({ id: 'b' }, 'comments', [1]),
      extended(known, 'comments', [2]),
      extended(withJson({ id: 'c' }, '{"id":"C"}'), '7', true),
      extended(withJson({ id: 'd' }, '{"id":"D"}'), 'gone', undefined),
    ];
    for (const value of cases) expect(stringifyAnswer({ value })).toBe(JSON.stringify({ value }));
  });

  it('joins parts kept as bytes into the answer as UTF-8, with the strings around them', () => {
    const post = withJson({ id: 'a', text: 'hé 🐦' }, [
      Buffer.from('{"id":"a",'),
      '"text":',
      Buffer.from('"hé 🐦"}'),
    ]);
    const page = { posts: [post, { id: 'ü' }, post], nextCursor: 'ç' };
    const answer = answerJson(page);
    expect(Buffer.isBuffer(answer)).toBe(true);
    expect(answer.toString()).toBe(JSON.stringify(page));
    expect(String(answerJson(post))).toBe(JSON.stringify(post));
    expect(jsonOf(post)).toBe(JSON.stringify(post));
    // Without bytes an answer stays one string.
    expect(typeof answerJson({ posts: [withJson({ id: 'b' }, '{"id":"b"}')] })).toBe('string');
  });

  it('extends a value kept as bytes, ending with them or with a string', () => {
    const endsInBytes = withJson({ id: 'a' }, ['{"id":', Buffer.from('"a"}')]);
    const endsInText = withJson({ id: 'b' }, [Buffer.from('{"id":'), '"b"}']);
    const comment = withJson({ text: 'ok' }, [Buffer.from('{"text":"ok"}')]);
    for (const value of [endsInBytes, endsInText]) {
      const copy = extended(value, 'comments', [comment, { text: '✓' }]);
      expect(stringifyAnswer({ posts: [copy] })).toBe(JSON.stringify({ posts: [copy] }));
      expect(stringifyAnswer(extended(copy, 'more', 'x'))).toBe(
        JSON.stringify({ ...copy, more: 'x' }),
      );
    }
  });

  it('copies bytes to keep into a buffer of their own', () => {
    const pooled = Buffer.from('{"emoji":"🐦"}');
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.length);
    const bytes = ownCopy(pooled);
    expect(bytes.toString()).toBe('{"emoji":"🐦"}');
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.length);
  });
});

describe('compileJson', () => {
  const schema = z.object({
    name: z.string(),
    count: z.number().int(),
    note: z.string().nullable(),
  });

  it("writes the schema's properties in its order, and nothing else", () => {
    const write = compileJson(schema);
    const value = { note: null, count: 2, name: 'a "b" 🐦', extra: true };
    expect(write(value)).toBe('{"name":"a \\"b\\" 🐦","count":2,"note":null}');
    expect(JSON.parse(write(value))).toEqual(schema.parse(value));
  });
});

describe('joinedObjects', () => {
  it("joins two objects' JSON into one, the second one's fields at `secondAt`", () => {
    const { json, secondAt } = joinedObjects('{"a":"🐦"}', '{"b":2,"c":[]}');
    expect(json.toString()).toBe('{"a":"🐦","b":2,"c":[]}');
    expect(json.subarray(secondAt).toString()).toBe('"b":2,"c":[]}');
  });

  it('joins empty objects', () => {
    const first = joinedObjects('{}', '{"b":2}');
    expect(first.json.toString()).toBe('{"b":2}');
    expect(first.json.subarray(first.secondAt).toString()).toBe('"b":2}');
    const second = joinedObjects('{"a":1}', '{}');
    expect(second.json.toString()).toBe('{"a":1}');
    expect(second.json.subarray(second.secondAt).toString()).toBe('}');
  });
});
