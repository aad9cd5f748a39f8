import { commentPageSchema, postMutationResponseSchema, type Post } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../factories';
import { createTestApp, type TestApp } from '../helpers';
import {
  MINIMAL,
  addComment,
  bodyOf,
  createPost,
  deletePost,
  editComment,
  fetchPost,
  listComments,
  postRequest,
} from '../social/social-helpers';
import {
  editRequest,
  mentionAt,
  mentionRowsOf,
  searchIds,
  storedCountOf,
  storedEntitiesOf,
  tagAt,
  tagNamesOf,
  tagState,
} from './discovery-helpers';

let t: TestApp;
let author: Member;
let members: Member[];
beforeAll(async () => {
  t = await createTestApp();
  author = await createMember(t.app, { username: 'racing_author' });
  members = [];
  for (let i = 0; i < 6; i += 1)
    members.push(await createMember(t.app, { username: `racer_${i}` }));
});
afterAll(async () => {
  await t.close();
});

/** Every tags.post_count equals its post_tags rows, and no tag without rows keeps a row. */
async function expectCountsMatchRows() {
  const counts = await t.app.db.selectFrom('tags').select(['name', 'post_count']).execute();
  const rows = await t.app.db.selectFrom('post_tags').select('tag').execute();
  const fromRows = new Map<string, number>();
  for (const row of rows) fromRows.set(row.tag, (fromRows.get(row.tag) ?? 0) + 1);
  const stored = new Map(counts.map((c) => [c.name, c.post_count]));
  expect(Object.fromEntries(stored)).toEqual(Object.fromEntries(fromRows));
}

const member = (i: number): Member => {
  const found = members[i];
  if (!found) throw new Error(`no member ${i}`);
  return found;
};

describe('tags, mentions and search under concurrent writes', () => {
  it('leaves a post racing edits with the rows, counts, index and entities of its final text', async () => {
    const rounds = 5;
    const editors = 5;
    for (let round = 0; round < rounds; round += 1) {
      const post = await createPost(t.app, author.token, `#start${round} startword${round}`);
      const texts = Array.from(
        { length: editors },
        (_, i) => `#Edit${round}x${i} #shared${round} for @racer_${i} marker${round}x${i}`,
      );
      const responses = await Promise.all(
        texts.map((content) => editRequest(t.app, author.token, post._id, { content })),
      );
      expect(
        responses.map((r) => r.statusCode),
        `round ${round}`,
      ).toEqual(Array(editors).fill(201));
      const answered = responses.map((r) => bodyOf(postMutationResponseSchema, r, 201).post);

      const final = await fetchPost(t.app, post._id);
      const winner = texts.indexOf(final.content);
      expect(winner, `round ${round}: ${final.content}`).toBeGreaterThanOrEqual(0);
      const text = texts[winner] ?? '';
      const expected = [
        tagAt(text, `#Edit${round}x${winner}`, `edit${round}x${winner}`),
        tagAt(text, `#shared${round}`, `shared${round}`),
        mentionAt(text, `@racer_${winner}`, member(winner)),
      ];
      expect(final.entities).toEqual(expected);
      expect(answered.find((p) => p.content === text)?.entities).toEqual(expected);
      expect(await storedEntitiesOf(t.app, 'post', post._id)).toEqual(expected);
      expect(await tagNamesOf(t.app, 'post', post._id)).toEqual(
        [`edit${round}x${winner}`, `shared${round}`].sort(),
      );
      expect(await mentionRowsOf(t.app, 'post', post._id)).toEqual([member(winner).user._id]);
      for (let i = 0; i < editors; i += 1) {
        const state = await tagState(t.app, `edit${round}x${i}`);
        expect(state, `round ${round} edit ${i}`).toEqual(
          i === winner ? { postCount: 1, posts: [post._id] } : { postCount: 0, posts: [] },
        );
        expect(await searchIds(t.app, `marker${round}x${i}`)).toEqual(
          i === winner ? [post._id] : [],
        );
      }
      expect(await tagState(t.app, `shared${round}`)).toEqual({ postCount: 1, posts: [post._id] });
      expect(await storedCountOf(t.app, `start${round}`)).toBeNull();
      expect(await searchIds(t.app, `startword${round}`)).toEqual([]);
    }
    await expectCountsMatchRows();
  });

  it('leaves a comment racing edits with the rows of its final text', async () => {
    const post = await createPost(t.app, author.token, 'a thread');
    const comment = await addComment(t.app, member(0).token, post._id, '#firstdraft');
    const texts = [1, 2, 3, 4].map((i) => `#draft${i} #drafts for @racer_${i}`);
    const responses = await Promise.all(
      texts.map((text) => editComment(t.app, member(0).token, post._id, comment._id, text)),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(4).fill(201));
    const final = bodyOf(commentPageSchema, await listComments(t.app, post._id), 200).comments[0];
    const winner = texts.indexOf(final?.text ?? '') + 1;
    expect(winner).toBeGreaterThan(0);
    expect(final?.entities.map((e) => (e.type === 'tag' ? e.tag : e.userId))).toEqual([
      `draft${winner}`,
      'drafts',
      member(winner).user._id,
    ]);
    expect(await tagNamesOf(t.app, 'comment', comment._id)).toEqual([`draft${winner}`, 'drafts']);
    expect(await mentionRowsOf(t.app, 'comment', comment._id)).toEqual([member(winner).user._id]);
    expect(await storedEntitiesOf(t.app, 'comment', comment._id)).toEqual(final?.entities);
  });

  it('counts every post created at once with the same tags, in any order', async () => {
    const orders = [
      '#samecount #pile_a #pile_b',
      '#pile_b #SameCount #pile_a',
      '#pile_a #pile_b #samecount',
    ];
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        postRequest(
          t.app,
          member(i % members.length).token,
          { content: `${orders[i % 3] ?? ''} n${i}` },
          MINIMAL,
        ),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(12).fill(201));
    const ids = responses.map((r) => bodyOf(postMutationResponseSchema, r, 201).post._id);
    for (const tag of ['samecount', 'pile_a', 'pile_b']) {
      const state = await tagState(t.app, tag);
      expect(state.postCount, tag).toBe(12);
      expect(state.posts.slice().sort(), tag).toEqual(ids.slice().sort());
      expect(await storedCountOf(t.app, tag)).toBe(12);
    }
    await expectCountsMatchRows();
  });

  it('keeps counts equal to rows when creates, edits and deletes of a tag race', async () => {
    for (let round = 0; round < 3; round += 1) {
      const tag = `churn${round}`;
      const posts: Post[] = [];
      for (let i = 0; i < 6; i += 1)
        posts.push(await createPost(t.app, member(i).token, `#${tag} ${i}`));
      const responses = await Promise.all([
        ...posts.slice(0, 2).map((p, i) => deletePost(t.app, member(i).token, p._id, MINIMAL)),
        ...posts
          .slice(2, 4)
          .map((p, i) => editRequest(t.app, member(i + 2).token, p._id, { content: 'untagged' })),
        ...posts
          .slice(4, 6)
          .map((p, i) =>
            editRequest(t.app, member(i + 4).token, p._id, { content: `#${tag} #${tag}` }),
          ),
        ...[0, 1, 2].map((i) =>
          postRequest(t.app, member(i).token, { content: `new #${tag}` }, MINIMAL),
        ),
        // A post edited and deleted at once: either way, nothing of it may remain counted twice.
        deletePost(t.app, member(5).token, posts[5]?._id ?? '', MINIMAL),
      ]);
      const unexpected = responses
        .filter((r) => ![201, 404].includes(r.statusCode))
        .map((r) => r.body);
      expect(unexpected, `round ${round}`).toEqual([]);
      const state = await tagState(t.app, tag);
      expect(state.postCount, `round ${round}`).toBe(4);
      expect(state.posts).toHaveLength(4);
      expect(state.posts).toContain(posts[4]?._id);
      expect(state.posts).not.toContain(posts[5]?._id);
      expect(await tagNamesOf(t.app, 'post', posts[5]?._id ?? '')).toEqual([]);
    }
    await expectCountsMatchRows();
  });
});
