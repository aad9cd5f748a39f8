import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isPostgres } from '../../src/platform/db/dialect';
import { createTransact, runRecorded } from '../../src/platform/events/transactions';
import { badRequest } from '../../src/lib/errors';
import { createMember, type Member } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import { testDatabaseKind } from '../test-database';
import {
  MINIMAL,
  addComment,
  bookmark,
  createPost,
  deleteComment,
  deletePost,
  dislike,
  downvote,
  editComment,
  follow,
  like,
  removeBookmark,
  unfollow,
  upvote,
  uploadImage,
} from '../social/social-helpers';
import { drain, lastOutboxId, outboxAfter, shapes, writtenAfter } from './event-helpers';

let t: TestApp;
let author: Member;
let reader: Member;
beforeAll(async () => {
  t = await createTestApp();
  author = await createMember(t.app);
  reader = await createMember(t.app);
});
afterAll(async () => {
  await t.close();
});

// Where the outbox stood before each test; every test looks only at what came after.
let mark: number;
beforeEach(async () => {
  await drain(t.app);
  mark = await lastOutboxId(t.app);
});

const recorded = async () => shapes(await writtenAfter(t.app, mark));

const editPost = (token: string, postId: string, postData: Record<string, unknown>) =>
  call(t.app, {
    method: 'POST',
    url: `/api/posts/edit/${postId}`,
    token,
    payload: { postData },
    headers: MINIMAL,
  });

describe('every write records exactly its event', () => {
  it('post created, edited and deleted', async () => {
    const post = await createPost(t.app, author.token, 'first words');
    const authorId = author.user._id;
    expect(await recorded()).toEqual([
      { type: 'post.created', payload: { postId: post._id, authorId } },
    ]);

    mark = await lastOutboxId(t.app);
    expect((await editPost(author.token, post._id, { content: 'second words' })).statusCode).toBe(
      201,
    );
    expect(await recorded()).toEqual([
      {
        type: 'post.edited',
        payload: { postId: post._id, authorId, previousMediaURL: null, previousMediaURLs: [] },
      },
    ]);

    // An edit that replaces the image names the image it replaced.
    const first = await uploadImage(t.app, author.token);
    const second = await uploadImage(t.app, author.token);
    expect((await editPost(author.token, post._id, { mediaURL: first })).statusCode).toBe(201);
    mark = await lastOutboxId(t.app);
    expect((await editPost(author.token, post._id, { mediaURL: second })).statusCode).toBe(201);
    expect(await recorded()).toEqual([
      {
        type: 'post.edited',
        payload: {
          postId: post._id,
          authorId,
          previousMediaURL: first,
          previousMediaURLs: [first],
        },
      },
    ]);

    mark = await lastOutboxId(t.app);
    expect((await deletePost(t.app, author.token, post._id)).statusCode).toBe(201);
    expect(await recorded()).toEqual([
      {
        type: 'post.deleted',
        payload: { postId: post._id, authorId, mediaURL: second, mediaURLs: [second] },
      },
    ]);
  });

  it('like and unlike, with the like count after the change', async () => {
    const post = await createPost(t.app, author.token, 'likeable');
    mark = await lastOutboxId(t.app);
    expect((await like(t.app, reader.token, post._id)).statusCode).toBe(201);
    expect((await like(t.app, author.token, post._id)).statusCode).toBe(201);
    expect((await dislike(t.app, reader.token, post._id)).statusCode).toBe(201);
    const ids = { postId: post._id, postAuthorId: author.user._id };
    expect(await recorded()).toEqual([
      { type: 'post.liked', payload: { ...ids, userId: reader.user._id, likeCount: 1 } },
      { type: 'post.liked', payload: { ...ids, userId: author.user._id, likeCount: 2 } },
      { type: 'post.unliked', payload: { ...ids, userId: reader.user._id, likeCount: 1 } },
    ]);
  });

  it('comment added, edited and deleted, with the comment count after the change', async () => {
    const post = await createPost(t.app, author.token, 'discuss');
    mark = await lastOutboxId(t.app);
    const comment = await addComment(t.app, reader.token, post._id, 'a thought');
    expect(
      (await editComment(t.app, reader.token, post._id, comment._id, 'a better thought'))
        .statusCode,
    ).toBe(201);
    // The post's author may delete another's comment: userId stays the comment's author.
    expect((await deleteComment(t.app, author.token, post._id, comment._id)).statusCode).toBe(201);
    const ids = { postId: post._id, commentId: comment._id };
    expect(await recorded()).toEqual([
      {
        type: 'comment.added',
        payload: {
          ...ids,
          postAuthorId: author.user._id,
          userId: reader.user._id,
          commentCount: 1,
        },
      },
      { type: 'comment.edited', payload: { ...ids, userId: reader.user._id } },
      {
        type: 'comment.deleted',
        payload: {
          ...ids,
          postAuthorId: author.user._id,
          userId: reader.user._id,
          commentCount: 0,
        },
      },
    ]);
  });

  it('comment votes, turned around, with both counts after the change', async () => {
    const post = await createPost(t.app, author.token, 'vote here');
    const comment = await addComment(t.app, author.token, post._id, 'agree?');
    mark = await lastOutboxId(t.app);
    expect((await upvote(t.app, reader.token, post._id, comment._id)).statusCode).toBe(201);
    expect((await downvote(t.app, reader.token, post._id, comment._id)).statusCode).toBe(201);
    const ids = { postId: post._id, commentId: comment._id, userId: reader.user._id };
    expect(await recorded()).toEqual([
      { type: 'comment.voted', payload: { ...ids, upvoteCount: 1, downvoteCount: 0 } },
      { type: 'comment.voted', payload: { ...ids, upvoteCount: 0, downvoteCount: 1 } },
    ]);
  });

  it('follow and unfollow, with both counts after the change', async () => {
    const [a, b] = [await createMember(t.app), await createMember(t.app)];
    expect((await follow(t.app, a.token, b.user._id)).statusCode).toBe(200);
    expect((await follow(t.app, author.token, b.user._id)).statusCode).toBe(200);
    expect((await unfollow(t.app, a.token, b.user._id)).statusCode).toBe(200);
    const pair = (follower: Member) => ({ followerId: follower.user._id, followeeId: b.user._id });
    expect(await recorded()).toEqual([
      { type: 'member.followed', payload: { ...pair(a), followersCount: 1, followingCount: 1 } },
      {
        type: 'member.followed',
        payload: { ...pair(author), followersCount: 2, followingCount: 1 },
      },
      { type: 'member.unfollowed', payload: { ...pair(a), followersCount: 1, followingCount: 0 } },
    ]);
  });

  it('bookmark added and removed', async () => {
    const post = await createPost(t.app, author.token, 'keep this');
    mark = await lastOutboxId(t.app);
    expect((await bookmark(t.app, reader.token, post._id)).statusCode).toBe(200);
    expect((await removeBookmark(t.app, reader.token, post._id)).statusCode).toBe(200);
    const payload = { userId: reader.user._id, postId: post._id };
    expect(await recorded()).toEqual([
      { type: 'bookmark.added', payload },
      { type: 'bookmark.removed', payload },
    ]);
  });

  it('profile edited, naming the avatar it replaced', async () => {
    const editProfile = (userData: Record<string, unknown>) =>
      call(t.app, {
        method: 'POST',
        url: '/api/users/edit',
        token: reader.token,
        payload: { userData },
      });
    const avatar = await uploadImage(t.app, reader.token, 'avatar');
    mark = await lastOutboxId(t.app);
    const names = { firstName: 'Grace', lastName: 'Hopper' };
    expect((await editProfile({ ...names, bio: 'hello' })).statusCode).toBe(200);
    expect((await editProfile({ ...names, avatarURL: avatar })).statusCode).toBe(200);
    expect((await editProfile({ ...names, avatarURL: null })).statusCode).toBe(200);
    const userId = reader.user._id;
    expect(await recorded()).toEqual([
      { type: 'profile.edited', payload: { userId, previousAvatarURL: null } },
      { type: 'profile.edited', payload: { userId, previousAvatarURL: null } },
      { type: 'profile.edited', payload: { userId, previousAvatarURL: avatar } },
    ]);
  });
});

describe('a refused write records nothing', () => {
  it('liking twice, unliking what was not liked, editing or deleting another’s post', async () => {
    const post = await createPost(t.app, author.token, 'mine');
    expect((await like(t.app, reader.token, post._id)).statusCode).toBe(201);
    await drain(t.app);
    mark = await lastOutboxId(t.app);
    expect((await like(t.app, reader.token, post._id)).statusCode).toBe(400);
    expect((await dislike(t.app, author.token, post._id)).statusCode).toBe(400);
    expect((await editPost(reader.token, post._id, { content: 'yours now' })).statusCode).toBe(400);
    expect((await deletePost(t.app, reader.token, post._id)).statusCode).toBe(400);
    expect((await follow(t.app, reader.token, reader.user._id)).statusCode).toBe(404);
    expect((await removeBookmark(t.app, reader.token, post._id)).statusCode).toBe(400);
    expect(await recorded()).toEqual([]);
    expect(await outboxAfter(t.app, mark)).toEqual([]);
  });
});

describe('events are stored only when their transaction commits', () => {
  const event = (postId: string) =>
    ({ type: 'bookmark.added', payload: { userId: 'rollback-test', postId } }) as const;
  const stored = async (postId: string) =>
    (await outboxAfter(t.app, mark)).filter((e) => e.payload.postId === postId);
  const bioOf = async (member: Member) =>
    (
      await t.app.db
        .selectFrom('users')
        .select('bio')
        .where('id', '=', member.user._id)
        .executeTakeFirst()
    )?.bio;

  it('createTransact: a throw after recording leaves no row, the same work without it does', async () => {
    const committed: number[] = [];
    const transact = createTransact(t.app.db, (lastId) => committed.push(lastId));
    const work = (postId: string, fail: boolean) =>
      transact(async (trx, events) => {
        await trx
          .updateTable('users')
          .set({ bio: postId })
          .where('id', '=', author.user._id)
          .execute();
        events.record(event(postId));
        if (fail) throw new Error('changed my mind');
        return postId;
      });

    await expect(work('failed-1', true)).rejects.toThrow('changed my mind');
    expect(await stored('failed-1')).toEqual([]);
    expect(committed).toEqual([]);
    const bio = () =>
      t.app.db
        .selectFrom('users')
        .select('bio')
        .where('id', '=', author.user._id)
        .executeTakeFirst();
    expect((await bio())?.bio).not.toBe('failed-1');

    expect(await work('kept-1', false)).toBe('kept-1');
    expect(await work('kept-2', false)).toBe('kept-2');
    const [first] = await stored('kept-1');
    const [second] = await stored('kept-2');
    expect(first?.type).toBe('bookmark.added');
    expect(first?.payload).toEqual(event('kept-1').payload);
    expect(second?.id).toBeGreaterThan(first?.id ?? Infinity);
    if (isPostgres(t.app.db)) {
      // Each commit announced; ids are given again at commit (migration 0018), so each announced
      // id is its insert's, which the committed one exceeds.
      expect(committed).toHaveLength(2);
      expect(committed[0]).toBeLessThan(first?.id ?? -Infinity);
      expect(committed[1]).toBeLessThan(second?.id ?? -Infinity);
    } else {
      expect(committed).toEqual([first?.id, second?.id]);
    }
    expect((await bio())?.bio).toBe('kept-2');
  });

  it('createTransact: writes made at once each commit or fail alone, answered after their commit', async () => {
    const committed: number[] = [];
    const transact = createTransact(t.app.db, (lastId) => committed.push(lastId));
    const members = [author, reader, await createMember(t.app), await createMember(t.app)];
    const write = (member: Member, postId: string, fail: boolean) =>
      transact(async (trx, events) => {
        await trx
          .updateTable('users')
          .set({ bio: postId })
          .where('id', '=', member.user._id)
          .execute();
        events.record(event(postId));
        if (fail) throw new Error(`refused ${postId}`);
        return postId;
      });

    const outcomes = await Promise.allSettled(
      members.map((member, index) => write(member, `together-${String(index)}`, index === 2)),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(await stored('together-2')).toEqual([]);
    const [first, second, refused, fourth] = members;
    expect(await bioOf(refused ?? author)).not.toBe('together-2');
    const kept = [0, 1, 3].map((index) => `together-${String(index)}`);
    const rows = (await Promise.all(kept.map(stored))).flat();
    expect(rows).toHaveLength(3);
    const keptMembers = [first, second, fourth].filter((member) => member !== undefined);
    expect(await Promise.all(keptMembers.map(bioOf))).toEqual(kept);
    const newest = Math.max(...rows.map((row) => row.id));
    if (isPostgres(t.app.db)) {
      // One transaction each, each announced; ids are given again at commit (migration 0018), so
      // an announced id is the insert's, which the committed one exceeds.
      expect(committed).toHaveLength(3);
      for (const id of committed) expect(id).toBeLessThan(newest);
    } else {
      // The writes that wait for the writer share transactions; the last announced id covers all.
      expect(committed.length).toBeLessThan(3);
      expect(committed.at(-1)).toBe(newest);
    }
  });

  it("createTransact: afterCommit hears the stored writes' events before they are answered", async () => {
    const heard: string[] = [];
    const transact = createTransact(
      t.app.db,
      () => undefined,
      (events) => {
        for (const { type, payload } of events) {
          if (type === 'bookmark.added') heard.push(payload.postId);
        }
      },
    );
    const outcomes = await Promise.allSettled(
      ['heard-0', 'heard-1', 'heard-2'].map((postId, index) =>
        transact(async (_trx, events) => {
          events.record(event(postId));
          if (index === 1) throw badRequest('refused');
          return Promise.resolve(postId);
        }).then((answered) => heard.includes(answered)),
      ),
    );
    // Each write answered after afterCommit heard its event.
    const answers = outcomes.map((outcome) =>
      outcome.status === 'fulfilled' ? outcome.value : 'refused',
    );
    expect(answers).toEqual([true, 'refused', true]);
    // PostgreSQL runs the writes side by side, so they may commit in either order.
    expect([...heard].sort()).toEqual(['heard-0', 'heard-2']);
  });

  it('createTransact: a write refused before it changes anything leaves the others as they ran', async () => {
    const transact = createTransact(t.app.db, () => undefined);
    const members = [author, reader, await createMember(t.app), await createMember(t.app)];
    // Each write sets its member's bio; the third refuses before or after its change.
    const batch = async (tag: string, refuseAfterChange: boolean) => {
      const runs = [0, 0, 0, 0];
      const outcomes = await Promise.allSettled(
        members.map((member, index) =>
          transact(async (trx, events) => {
            runs[index] = (runs[index] ?? 0) + 1;
            const refuses = index === 2;
            if (refuses && !refuseAfterChange) throw badRequest(`refused ${tag}`);
            await trx
              .updateTable('users')
              .set({ bio: `${tag}-${String(index)}` })
              .where('id', '=', member.user._id)
              .execute();
            events.record(event(`${tag}-${String(index)}`));
            if (refuses) throw badRequest(`refused ${tag}`);
            return index;
          }),
        ),
      );
      expect(outcomes.map((outcome) => outcome.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
      ]);
      const bios = await Promise.all(members.map(bioOf));
      expect([bios[0], bios[1], bios[3]]).toEqual([`${tag}-0`, `${tag}-1`, `${tag}-3`]);
      expect(bios[2]).not.toBe(`${tag}-2`);
      for (const index of [0, 1, 3])
        expect(await stored(`${tag}-${String(index)}`)).toHaveLength(1);
      expect(await stored(`${tag}-2`)).toEqual([]);
      return runs;
    };

    expect(await batch('refused-first', false)).toEqual([1, 1, 1, 1]);
    // On SQLite, a change rolled back takes the batch's other changes with it: the writes before
    // it run again, each in a savepoint; PostgreSQL runs each write in its own transaction.
    expect(await batch('refused-after', true)).toEqual(
      isPostgres(t.app.db) ? [1, 1, 1, 1] : [2, 2, 2, 1],
    );
  });

  it('runRecorded: answers the last id given, and nothing when its transaction rolls back', async () => {
    const run = (postIds: string[], fail: boolean) =>
      t.app.db.transaction().execute(async (trx) => {
        const answer = await runRecorded(trx, async (_tx, events) => {
          for (const postId of postIds) events.record(event(postId));
          return postIds.length;
        });
        if (fail) throw new Error('rolled back after recording');
        return answer;
      });

    await expect(run(['undone-1', 'undone-2'], true)).rejects.toThrow('rolled back');
    expect(await stored('undone-1')).toEqual([]);
    expect(await stored('undone-2')).toEqual([]);

    const none = await run([], false);
    expect(none).toEqual({ result: 0, lastId: null });
    const two = await run(['done-1', 'done-2'], false);
    const lastId = two.lastId ?? -1;
    const rows = [...(await stored('done-1')), ...(await stored('done-2'))];
    const [firstId = -1, secondId] = rows.map((row) => row.id);
    expect(secondId).toBe(firstId + 1);
    // PostgreSQL gives ids again at commit (migration 0018): newer than the inserts'.
    if (isPostgres(t.app.db)) expect(firstId).toBeGreaterThan(lastId);
    else expect(secondId).toBe(lastId);
    expect(two.result).toBe(2);
    const one = await run(['done-3'], false);
    expect(one.lastId).toBeGreaterThan(lastId);
  });
});

describe('concurrent writes', () => {
  // SQLite runs one write transaction at a time, so there the order cannot differ.
  it.runIf(testDatabaseKind() === 'postgres')(
    'PostgreSQL: ids follow commit order (recorded first, committed last, numbered last)',
    async () => {
      const event = (postId: string) =>
        ({ type: 'bookmark.added', payload: { userId: 'order-test', postId } }) as const;
      const early = await t.app.db.startTransaction().execute();
      try {
        const recordedEarly = await runRecorded(early, async (_trx, events) => {
          events.record(event('recorded-early'));
          return null;
        });
        // Another write records and commits meanwhile, without waiting for the first.
        const late = await t.app.db.transaction().execute((trx) =>
          runRecorded(trx, async (_trx, events) => {
            events.record(event('recorded-late'));
          }),
        );
        expect(late.lastId).toBeGreaterThan(recordedEarly.lastId ?? Infinity);
        await early.commit().execute();
      } catch (error) {
        await early.rollback().execute();
        throw error;
      }
      const idOf = async (postId: string) =>
        (await outboxAfter(t.app, mark)).find((e) => e.payload.postId === postId)?.id ?? -1;
      const [earlyId, lateId] = [await idOf('recorded-early'), await idOf('recorded-late')];
      expect(lateId).toBeGreaterThan(mark);
      // A reader that saw the one committed first never meets a lower id committed after it.
      expect(earlyId).toBeGreaterThan(lateId);
    },
  );

  it('20 members liking one post at once: 20 events, distinct growing ids, counts 1..20', async () => {
    const post = await createPost(t.app, author.token, 'popular');
    const likers: Member[] = [];
    for (let i = 0; i < 20; i += 1) likers.push(await createMember(t.app));
    mark = await lastOutboxId(t.app);
    const answers = await Promise.all(likers.map((m) => like(t.app, m.token, post._id, MINIMAL)));
    expect(answers.map((a) => a.statusCode)).toEqual(likers.map(() => 201));

    const liked = (await writtenAfter(t.app, mark)).filter((e) => e.type === 'post.liked');
    expect(liked).toHaveLength(20);
    const ids = liked.map((e) => e.id);
    expect(new Set(ids).size).toBe(20);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(liked.map((e) => e.payload.userId))).toEqual(
      new Set(likers.map((m) => m.user._id)),
    );
    const counts = liked.map((e) => e.payload.likeCount as number);
    const oneToTwenty = Array.from({ length: 20 }, (_, i) => i + 1);
    expect([...counts].sort((a, b) => a - b)).toEqual(oneToTwenty);
    // The post is locked from the like to commit, and ids are given in commit order: so, in id
    // order, the counts grow one by one.
    expect(counts).toEqual(oneToTwenty);
  });
});
