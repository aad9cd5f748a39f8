import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase } from '../../src/platform/db/database';
import { migrations } from '../../src/platform/db/migrate';
import type { Database } from '../../src/platform/db/schema';
import { newId } from '../../src/lib/ids';
import { counterMismatches, deleteOwnAccount, NO_MISMATCH } from '../account/account-helpers';
import { createTestApp, type TestApp } from '../helpers';
import { block, mute } from '../safety/safety-helpers';
import {
  addComment,
  createMembers,
  createPost,
  deleteComment,
  deletePost,
  dislike,
  follow,
  like,
} from '../social/social-helpers';
import { createTestDatabase } from '../test-database';
import { markAllRead, ok, unreadOf } from './notification-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function keptCount(db: Kysely<Database>, recipientId: string): Promise<number | null> {
  const row = await db
    .selectFrom('notification_unread_counts')
    .select('count')
    .where('recipient_id', '=', recipientId)
    .executeTakeFirst();
  return row === undefined ? null : Number(row.count);
}

describe('the kept unread count', () => {
  it('follows every way notifications come and go, cascades included', async () => {
    const [author, b, c, d] = await createMembers(t.app, 4);
    const first = await createPost(t.app, author.token, 'first');
    const second = await createPost(t.app, author.token, 'second');
    const steps: [string, () => Promise<void>, number][] = [
      [
        'two likes',
        async () => {
          await Promise.all([
            ok(like(t.app, b.token, first._id), 201),
            ok(like(t.app, c.token, second._id), 201),
          ]);
        },
        2,
      ],
      [
        'a comment and a follow',
        async () => {
          await addComment(t.app, b.token, second._id, 'on the second');
          await ok(follow(t.app, d.token, author.user._id), 200);
        },
        4,
      ],
      ['a like taken back', () => ok(dislike(t.app, b.token, first._id), 201), 3],
      ['all read', () => markAllRead(t.app, author), 0],
      [
        'a like and a comment',
        async () => {
          await ok(like(t.app, d.token, first._id), 201);
          const comment = await addComment(t.app, c.token, first._id, 'on the first');
          await ok(like(t.app, c.token, first._id), 201);
          expect(await unreadOf(t.app, author)).toBe(3);
          await ok(deleteComment(t.app, c.token, first._id, comment._id), 201);
        },
        2,
      ],
      // The post's like notifications go with it (a cascade), the earlier read ones too.
      ['the post deleted', () => ok(deletePost(t.app, author.token, first._id), 201), 0],
      [
        'another like, then a block',
        async () => {
          await ok(like(t.app, d.token, second._id), 201);
          await ok(like(t.app, b.token, second._id), 201);
          expect(await unreadOf(t.app, author)).toBe(2);
          await block(t.app, author, d);
        },
        1,
      ],
      // The liker's account goes, and with it their notifications.
      ['a member deleted', () => ok(deleteOwnAccount(t.app, b), 204), 0],
    ];
    for (const [name, step, expected] of steps) {
      await step();
      expect(await unreadOf(t.app, author), name).toBe(expected);
      expect(await keptCount(t.app.db, author.user._id), name).toBe(expected);
      expect(await counterMismatches(t.app.db), name).toEqual(NO_MISMATCH);
    }
  });

  it('leaves out a muted member’s notifications, counted from the rows', async () => {
    const [author, muted, other] = await createMembers(t.app, 3);
    const post = await createPost(t.app, author.token, 'a post');
    await ok(like(t.app, muted.token, post._id), 201);
    await ok(like(t.app, other.token, post._id), 201);
    await mute(t.app, author, muted);
    expect(await unreadOf(t.app, author)).toBe(1);
    // The kept count holds every row; the muted member's like is left out when it is shown.
    expect(await keptCount(t.app.db, author.user._id)).toBe(2);
  });

  it('goes with its member', async () => {
    const [author, fan] = await createMembers(t.app, 2);
    const post = await createPost(t.app, author.token, 'soon gone');
    await ok(like(t.app, fan.token, post._id), 201);
    expect(await unreadOf(t.app, author)).toBe(1);
    await ok(deleteOwnAccount(t.app, author), 204);
    expect(await keptCount(t.app.db, author.user._id)).toBeNull();
    expect(await counterMismatches(t.app.db)).toEqual(NO_MISMATCH);
  });
});

describe('the migration that keeps it', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'perch-unread-'));
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('counts the unread notifications already there', async () => {
    const database = await createTestDatabase(dataDir);
    const db = database.handle.db;
    try {
      const names = Object.keys(migrations);
      const before = names.slice(0, names.indexOf('0020_unread_counts'));
      const migrator = (upTo: string[]) =>
        new Migrator({
          db: db as Kysely<unknown>,
          provider: {
            getMigrations: () =>
              Promise.resolve(
                Object.fromEntries(
                  Object.entries(migrations).filter(([name]) => upTo.includes(name)),
                ),
              ),
          },
        });
      expect((await migrator(before).migrateToLatest()).error).toBeUndefined();
      const users = ['a', 'b', 'c'].map((name) => ({ id: newId(), name }));
      for (const user of users) {
        await db
          .insertInto('users')
          .values({
            id: user.id,
            username: user.name,
            first_name: user.name,
            last_name: user.name,
            email: `${user.name}@example.com`,
            password_hash: 'x',
            created_at: 0,
            updated_at: 0,
          })
          .execute();
      }
      const [a, b, c] = users.map((user) => user.id);
      const notify = (recipient: string | undefined, readAt: number | null) =>
        db
          .insertInto('notifications')
          .values({
            id: newId(),
            recipient_id: recipient ?? '',
            kind: 'follow',
            actor_id: c ?? '',
            post_id: null,
            comment_id: null,
            group_key: `follow:${newId()}`,
            created_at: 1,
            read_at: readAt,
          })
          .execute();
      await notify(a, null);
      await notify(a, null);
      await notify(a, 5);
      await notify(b, 5);

      expect((await migrator(names).migrateToLatest()).error).toBeUndefined();
      expect(await keptCount(db, a ?? '')).toBe(2);
      expect(await keptCount(db, b ?? '')).toBeNull();
      await notify(b, null);
      expect(await keptCount(db, b ?? '')).toBe(1);
    } finally {
      await closeDatabase(database.handle);
      await database.drop();
    }
  });
});
