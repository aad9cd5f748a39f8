import { ErrorMessages, SafetyErrors } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastOutboxId, writtenAfter } from '../events/event-helpers';
import { createMember } from '../factories';
import { call, createTestApp, type TestApp } from '../helpers';
import {
  UNKNOWN_ID,
  createMembers,
  expectClientError,
  expectError,
  getUser,
  idsOf,
  walk,
} from '../social/social-helpers';
import { userSchema } from '@perch/contract';
import { block, mute, safetyCall, unblock, unmute, usersAt } from './safety-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const rows = (table: 'blocks' | 'mutes', userId: string) =>
  t.app.db.selectFrom(table).selectAll().where('user_id', '=', userId).execute();

describe('POST /api/users/block|unblock|mute|unmute/{userId}', () => {
  it('answers 204, keeps one row however often it is asked, and undoes', async () => {
    const [viewer, other] = await createMembers(t.app, 2);
    await block(t.app, viewer, other);
    await block(t.app, viewer, other);
    expect((await rows('blocks', viewer.user._id)).map((r) => r.target_id)).toEqual([
      other.user._id,
    ]);
    await unblock(t.app, viewer, other);
    await unblock(t.app, viewer, other);
    expect(await rows('blocks', viewer.user._id)).toEqual([]);

    await mute(t.app, viewer, other);
    await mute(t.app, viewer, other);
    expect((await rows('mutes', viewer.user._id)).map((r) => r.target_id)).toEqual([
      other.user._id,
    ]);
    await unmute(t.app, viewer, other);
    await unmute(t.app, viewer, other);
    expect(await rows('mutes', viewer.user._id)).toEqual([]);
  });

  it('records one owner event per change, none for a repeat', async () => {
    const [viewer, other] = await createMembers(t.app, 2);
    const before = await lastOutboxId(t.app);
    await block(t.app, viewer, other);
    await block(t.app, viewer, other);
    await unblock(t.app, viewer, other);
    await mute(t.app, viewer, other);
    await unmute(t.app, viewer, other);
    await unmute(t.app, viewer, other);
    const events = (await writtenAfter(t.app, before)).filter((e) => e.type.startsWith('member.'));
    const payload = { userId: viewer.user._id, targetId: other.user._id };
    expect(events.map((e) => [e.type, e.payload])).toEqual([
      ['member.blocked', payload],
      ['member.unblocked', payload],
      ['member.muted', payload],
      ['member.unmuted', payload],
    ]);
  });

  it('answers 404 for no such member, 400 for oneself, 401 without a token', async () => {
    const viewer = await createMember(t.app);
    for (const action of ['block', 'unblock', 'mute', 'unmute'] as const) {
      expectError(
        await safetyCall(t.app, action, viewer.token, UNKNOWN_ID),
        404,
        ErrorMessages.userNotFound,
      );
      expectError(
        await safetyCall(t.app, action, viewer.token, viewer.user._id),
        400,
        action.endsWith('block') ? SafetyErrors.blockSelf : SafetyErrors.muteSelf,
      );
      expectClientError(await safetyCall(t.app, action, undefined, viewer.user._id), 401);
      expectClientError(await safetyCall(t.app, action, 'Bearer nonsense', viewer.user._id), 401);
      expectClientError(await safetyCall(t.app, action, viewer.token, 'x'.repeat(65)), 400);
    }
    expect(await rows('blocks', viewer.user._id)).toEqual([]);
    expect(await rows('mutes', viewer.user._id)).toEqual([]);
  });
});

describe('GET /api/users/me/blocked and /me/muted', () => {
  it('lists the members most recent first, page by page, without gaps or repeats', async () => {
    const viewer = await createMember(t.app);
    const others = await createMembers(t.app, 5);
    for (const other of others) {
      await block(t.app, viewer, other);
      await mute(t.app, viewer, other);
    }
    const newestFirst = idsOf(others.map((o) => o.user)).reverse();
    for (const url of ['/api/users/me/blocked', '/api/users/me/muted']) {
      const { items, pages } = await walk(t.app, url, 'users', userSchema, {
        token: viewer.token,
        limit: 2,
      });
      expect(idsOf(items)).toEqual(newestFirst);
      expect(pages).toBe(3);
      expect(items.every((user) => user.email === undefined)).toBe(true);
    }
    // Undone: gone from the list; the other list keeps them.
    const [first] = others;
    await unblock(t.app, viewer, first);
    expect(idsOf(await usersAt(t.app, '/api/users/me/blocked', viewer))).not.toContain(
      first.user._id,
    );
    expect(idsOf(await usersAt(t.app, '/api/users/me/muted', viewer))).toContain(first.user._id);
  });

  it('is the viewer’s own: others never appear, and it needs a token', async () => {
    const [viewer, other, third] = await createMembers(t.app, 3);
    await block(t.app, other, third);
    await mute(t.app, other, third);
    expect(await usersAt(t.app, '/api/users/me/blocked', viewer)).toEqual([]);
    expect(await usersAt(t.app, '/api/users/me/muted', viewer)).toEqual([]);
    for (const url of ['/api/users/me/blocked', '/api/users/me/muted']) {
      expectClientError(await call(t.app, { method: 'GET', url }), 401);
      expectClientError(
        await call(t.app, { method: 'GET', url: `${url}?cursor=nonsense`, token: viewer.token }),
        400,
      );
      expectClientError(
        await call(t.app, { method: 'GET', url: `${url}?limit=0`, token: viewer.token }),
        400,
      );
    }
  });
});

describe('GET /api/users/{username} with a viewer', () => {
  it('marks viewerBlocks and viewerMutes, false otherwise, absent without a viewer', async () => {
    const [viewer, other] = await createMembers(t.app, 2);
    expect(await getUser(t.app, other.user.username, viewer.token)).toMatchObject({
      viewerBlocks: false,
      viewerMutes: false,
    });
    await mute(t.app, viewer, other);
    expect(await getUser(t.app, other.user.username, viewer.token)).toMatchObject({
      viewerBlocks: false,
      viewerMutes: true,
    });
    await block(t.app, viewer, other);
    expect(await getUser(t.app, other.user.username, viewer.token)).toMatchObject({
      viewerBlocks: true,
      viewerMutes: true,
    });
    const anonymous = await getUser(t.app, other.user.username);
    expect(anonymous.viewerBlocks).toBeUndefined();
    expect(anonymous.viewerMutes).toBeUndefined();
  });

  it('answers 404 to the member who was blocked, and 200 again once unblocked', async () => {
    const [blocker, blocked] = await createMembers(t.app, 2);
    await block(t.app, blocker, blocked);
    const url = `/api/users/${blocker.user.username}`;
    expectError(
      await call(t.app, { method: 'GET', url, token: blocked.token }),
      404,
      ErrorMessages.userNotFound,
    );
    // The muted side notices nothing: a mute changes nothing for them.
    const muter = await createMember(t.app);
    await mute(t.app, muter, blocked);
    expect(await getUser(t.app, muter.user.username, blocked.token)).toMatchObject({
      viewerBlocks: false,
      viewerMutes: false,
    });
    await unblock(t.app, blocker, blocked);
    expect((await getUser(t.app, blocker.user.username, blocked.token))._id).toBe(blocker.user._id);
  });
});
