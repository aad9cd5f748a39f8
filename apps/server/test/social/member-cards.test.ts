import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PublishedEvent } from '@perch/contract';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase } from '../../src/platform/db/database';
import { isPostgres } from '../../src/platform/db/dialect';
import { migrateToLatest } from '../../src/platform/db/migrate';
import { newId } from '../../src/lib/ids';
import { answerJson } from '../../src/lib/serialized';
import { createKeptFollowees } from '../../src/modules/users/kept-followees';
import { createMemberCards } from '../../src/modules/users/member-cards';
import { createMemberSearchPages } from '../../src/modules/users/member-search-pages';
import { toUser } from '../../src/modules/users/users.mapper';
import { createTestDatabase, type TestDatabase } from '../test-database';

/** The answer as text, whether it was written as a string or as bytes. */
const stringifyAnswer = (payload: unknown) => String(answerJson(payload));

let dataDir: string;
let database: TestDatabase;
const ids: string[] = [];

const db = () => database.handle.db;

async function setPostsCount(id: string, count: number): Promise<void> {
  await db().updateTable('users').set({ posts_count: count }).where('id', '=', id).execute();
}

async function setFollow(followerId: string, followeeId: string, on: boolean): Promise<void> {
  if (on) {
    await db()
      .insertInto('follows')
      .values({ follower_id: followerId, followee_id: followeeId, created_at: Date.now() })
      .execute();
  } else {
    await db()
      .deleteFrom('follows')
      .where('follower_id', '=', followerId)
      .where('followee_id', '=', followeeId)
      .execute();
  }
}

const event = (type: PublishedEvent['type'], payload: Record<string, unknown>) =>
  ({ type, payload }) as unknown as PublishedEvent;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'perch-member-cards-'));
  database = await createTestDatabase(dataDir);
  await migrateToLatest(database.handle.db as Kysely<unknown>);
  const now = Date.now();
  for (let i = 0; i < 4; i += 1) {
    const id = newId(now + i);
    ids.push(id);
    await db()
      .insertInto('users')
      .values({
        id,
        username: `card_member_${i}`,
        first_name: `First ${i}`,
        last_name: `Last "${i}" 🌞`,
        email: `card${i}@example.com`,
        password_hash: 'x',
        bio: i === 0 ? '' : `Bio \\ ${i}`,
        avatar_url: i === 0 ? null : `/media/avatar-${i}.webp`,
        created_at: now,
        updated_at: now + i,
      })
      .execute();
  }
});
afterAll(async () => {
  await closeDatabase(database.handle);
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('member cards', () => {
  it('lists the members that exist, in the order asked, as toUser writes them for the viewer', async () => {
    const cards = createMemberCards({ reads: database.handle.reads, max: 10 });
    const [a = '', b = '', c = ''] = ids;
    const rows = await db().selectFrom('users').selectAll().where('id', 'in', [a, b, c]).execute();
    const row = (id: string) => {
      const found = rows.find((r) => r.id === id);
      if (!found) throw new Error(`no member ${id}`);
      return found;
    };
    for (let pass = 0; pass < 2; pass += 1) {
      const asked = [c, newId(), a, b];
      const viewed = await cards.listed(asked, a, new Set([c]));
      expect(viewed).toEqual([
        toUser(row(c), { followedByViewer: true }),
        toUser(row(a), { includeEmail: true, followedByViewer: false }),
        toUser(row(b), { followedByViewer: false }),
      ]);
      const answer = { users: viewed, nextCursor: null };
      expect(stringifyAnswer(answer)).toBe(JSON.stringify(answer));
      const anonymous = await cards.listed(asked, null, new Set());
      expect(anonymous).toEqual([c, a, b].map((id) => toUser(row(id))));
      expect(stringifyAnswer({ users: anonymous })).toBe(JSON.stringify({ users: anonymous }));
    }
  });

  it('keeps a card until an event says its counts or profile changed', async () => {
    const cards = createMemberCards({ reads: database.handle.reads, max: 10 });
    const [a = '', b = '', c = '', d = ''] = ids;
    const counts = async () =>
      (await cards.listed([a, b, c, d], null, new Set())).map((user) => user.postsCount);
    expect(await counts()).toEqual([0, 0, 0, 0]);
    for (const id of ids) await setPostsCount(id, 7);
    expect(await counts()).toEqual([0, 0, 0, 0]);

    cards.listener([event('post.created', { postId: newId(), authorId: a })]);
    expect(await counts()).toEqual([7, 0, 0, 0]);
    cards.listener([event('member.followed', { followerId: b, followeeId: c })]);
    expect(await counts()).toEqual([7, 7, 7, 0]);
    cards.listener([event('profile.edited', { userId: d, previousAvatarURL: null })]);
    expect(await counts()).toEqual([7, 7, 7, 7]);

    for (const id of ids) await setPostsCount(id, 0);
    cards.listener([event('member.deleted', { userId: newId(), mediaURLs: [] })]);
    expect(await counts()).toEqual([0, 0, 0, 0]);
  });

  it('does not keep what it read while the card was being dropped', async () => {
    const cards = createMemberCards({ reads: database.handle.reads, max: 10 });
    const [a = ''] = ids;
    const reading = cards.listed([a], null, new Set());
    cards.forget(a);
    await reading;
    await setPostsCount(a, 3);
    expect((await cards.listed([a], null, new Set()))[0]?.postsCount).toBe(3);
    await setPostsCount(a, 0);
  });
});

describe('kept followees', () => {
  it('answers whom a member follows, kept until they follow or unfollow', async () => {
    const followees = createKeptFollowees({
      reads: database.handle.reads,
      maxIds: 100,
      maxPerMember: 10,
    });
    const [a = '', b = '', c = '', d = ''] = ids;
    await setFollow(a, b, true);
    const among = async () => {
      const found = await followees.among(a, [b, c, d]);
      return [b, c, d].filter((id) => found.has(id));
    };
    expect(await among()).toEqual([b]);
    await setFollow(a, c, true);
    expect(await among()).toEqual([b]);
    // Another member's follow changes nothing of a's.
    followees.listener([event('member.followed', { followerId: c, followeeId: a })]);
    expect(await among()).toEqual([b]);
    followees.listener([event('member.followed', { followerId: a, followeeId: c })]);
    expect(await among()).toEqual([b, c]);
    await setFollow(a, b, false);
    followees.forget(a);
    expect(await among()).toEqual([c]);
    await setFollow(a, c, false);
    followees.listener([event('member.unfollowed', { followerId: a, followeeId: c })]);
    expect(await among()).toEqual([]);
  });

  it('asks the database page by page for a member who follows more than it keeps', async () => {
    const followees = createKeptFollowees({
      reads: database.handle.reads,
      maxIds: 100,
      maxPerMember: 1,
    });
    const [a = '', b = '', c = '', d = ''] = ids;
    await setFollow(a, b, true);
    await setFollow(a, c, true);
    const found = await followees.among(a, [b, d]);
    expect([...found]).toEqual([b]);
    await setFollow(a, d, true);
    expect([...(await followees.among(a, [b, d]))].sort()).toEqual([b, d].sort());
    for (const id of [b, c, d]) await setFollow(a, id, false);
  });
});

// SQLite's only: PostgreSQL reads member search from its trigram index.
describe('member search pages', () => {
  it('keeps a first page until a member registers, edits their names or leaves', async () => {
    if (isPostgres(db())) return;
    const pages = createMemberSearchPages({ reads: database.handle.reads, max: 10 });
    let reads = 0;
    const [a = ''] = ids;
    const read = () => {
      reads += 1;
      return Promise.resolve([{ id: a, lower_username: 'card_member_0' }]);
    };
    const page = await pages.firstPage('pairs:20:ca', read);
    expect(await pages.firstPage('pairs:20:ca', read)).toBe(page);
    expect(reads).toBe(1);

    const newcomer = newId();
    await db()
      .insertInto('users')
      .values({
        id: newcomer,
        username: 'card_newcomer',
        first_name: 'New',
        last_name: 'Comer',
        email: 'newcomer@example.com',
        password_hash: 'x',
        created_at: Date.now(),
        updated_at: Date.now(),
      })
      .execute();
    await pages.firstPage('pairs:20:ca', read);
    expect(reads).toBe(2);
    await pages.firstPage('pairs:20:ca', read);
    expect(reads).toBe(2);

    pages.listener([event('profile.edited', { userId: a, previousAvatarURL: null })]);
    await pages.firstPage('pairs:20:ca', read);
    expect(reads).toBe(3);
    pages.listener([event('member.deleted', { userId: newcomer, mediaURLs: [] })]);
    await pages.firstPage('pairs:20:ca', read);
    expect(reads).toBe(4);
    await db().deleteFrom('users').where('id', '=', newcomer).execute();
  });

  it('does not keep a page read while the pages were dropped', async () => {
    if (isPostgres(db())) return;
    const pages = createMemberSearchPages({ reads: database.handle.reads, max: 10 });
    let reads = 0;
    const read = () => {
      reads += 1;
      pages.forgetAll();
      return Promise.resolve([]);
    };
    await pages.firstPage('triples:20:car', read);
    await pages.firstPage('triples:20:car', read);
    expect(reads).toBe(2);
  });
});
