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
import { toUser } from '../../src/modules/users/users.mapper';
import { createMemberPresenter } from '../../src/read-model/member/presenter';
import { handOnTo } from '../read-model-views';
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

/** A member presenter of its own, as another process has, and the relay handing it events. */
function presenter(options: { maxFolloweesPerMember?: number } = {}) {
  const members = createMemberPresenter({
    reads: database.handle.reads,
    maxSummaries: 10,
    maxViews: 10,
    maxFollowees: 100,
    maxFolloweesPerMember: options.maxFolloweesPerMember ?? 10,
    maxSearchPages: 10,
  });
  return { members, handOn: handOnTo({ members: members.invalidate }) };
}

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

describe('member views', () => {
  it('lists the members that exist, in the order asked, as toUser writes them for the viewer', async () => {
    const { members } = presenter();
    const [a = '', b = '', c = ''] = ids;
    await setFollow(a, c, true);
    const rows = await db().selectFrom('users').selectAll().where('id', 'in', [a, b, c]).execute();
    const row = (id: string) => {
      const found = rows.find((r) => r.id === id);
      if (!found) throw new Error(`no member ${id}`);
      return found;
    };
    for (let pass = 0; pass < 2; pass += 1) {
      const asked = [c, newId(), a, b];
      const viewed = await members.packMany(asked, a);
      expect(viewed).toEqual([
        toUser(row(c), { followedByViewer: true }),
        toUser(row(a), { includeEmail: true, followedByViewer: false }),
        toUser(row(b), { followedByViewer: false }),
      ]);
      const answer = { users: viewed, nextCursor: null };
      expect(stringifyAnswer(answer)).toBe(JSON.stringify(answer));
      const anonymous = await members.packMany(asked, null);
      expect(anonymous).toEqual([c, a, b].map((id) => toUser(row(id))));
      expect(stringifyAnswer({ users: anonymous })).toBe(JSON.stringify({ users: anonymous }));
    }
    await setFollow(a, c, false);
  });

  it('caches a view until an event says its counts or profile changed', async () => {
    const { members, handOn } = presenter();
    const [a = '', b = '', c = '', d = ''] = ids;
    const counts = async () =>
      (await members.packMany([a, b, c, d], null)).map((user) => user.postsCount);
    expect(await counts()).toEqual([0, 0, 0, 0]);
    for (const id of ids) await setPostsCount(id, 7);
    expect(await counts()).toEqual([0, 0, 0, 0]);

    handOn([event('post.created', { postId: newId(), authorId: a })]);
    expect(await counts()).toEqual([7, 0, 0, 0]);
    handOn([event('member.followed', { followerId: b, followeeId: c })]);
    expect(await counts()).toEqual([7, 7, 7, 0]);
    handOn([event('profile.edited', { userId: d, previousAvatarURL: null })]);
    expect(await counts()).toEqual([7, 7, 7, 7]);

    for (const id of ids) await setPostsCount(id, 0);
    handOn([event('member.deleted', { userId: newId(), mediaURLs: [] })]);
    expect(await counts()).toEqual([0, 0, 0, 0]);
  });

  it('does not cache what it read while the view was being dropped', async () => {
    const { members } = presenter();
    const [a = ''] = ids;
    const reading = members.packMany([a], null);
    members.invalidate.countsChanged(a);
    await reading;
    await setPostsCount(a, 3);
    expect((await members.packMany([a], null))[0]?.postsCount).toBe(3);
    await setPostsCount(a, 0);
  });
});

describe('the followee cache', () => {
  it('answers whom a member follows, cached until they follow or unfollow', async () => {
    const { members, handOn } = presenter();
    const [a = '', b = '', c = '', d = ''] = ids;
    await setFollow(a, b, true);
    const among = async () =>
      (await members.packMany([b, c, d], a))
        .filter((user) => user.followedByViewer)
        .map((user) => user._id);
    expect(await among()).toEqual([b]);
    await setFollow(a, c, true);
    expect(await among()).toEqual([b]);
    // Another member's follow changes nothing of a's.
    handOn([event('member.followed', { followerId: c, followeeId: a })]);
    expect(await among()).toEqual([b]);
    handOn([event('member.followed', { followerId: a, followeeId: c })]);
    expect(await among()).toEqual([b, c]);
    await setFollow(a, b, false);
    members.invalidate.followsChanged(a);
    expect(await among()).toEqual([c]);
    await setFollow(a, c, false);
    handOn([event('member.unfollowed', { followerId: a, followeeId: c })]);
    expect(await among()).toEqual([]);
  });

  it('asks the database page by page for a member who follows more than it caches', async () => {
    const { members } = presenter({ maxFolloweesPerMember: 1 });
    const [a = '', b = '', c = '', d = ''] = ids;
    await setFollow(a, b, true);
    await setFollow(a, c, true);
    const followed = async () =>
      (await members.packMany([b, d], a))
        .filter((user) => user.followedByViewer)
        .map((user) => user._id);
    expect(await followed()).toEqual([b]);
    await setFollow(a, d, true);
    expect(await followed()).toEqual([b, d]);
    for (const id of [b, c, d]) await setFollow(a, id, false);
  });
});

// SQLite's only: PostgreSQL reads member search from its trigram index.
describe('member search pages', () => {
  it('caches a first page until a member registers, edits their names or leaves', async () => {
    if (isPostgres(db())) return;
    const { members, handOn } = presenter();
    const pages = { firstPage: members.firstSearchPage };
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

    handOn([event('profile.edited', { userId: a, previousAvatarURL: null })]);
    await pages.firstPage('pairs:20:ca', read);
    expect(reads).toBe(3);
    handOn([event('member.deleted', { userId: newcomer, mediaURLs: [] })]);
    await pages.firstPage('pairs:20:ca', read);
    expect(reads).toBe(4);
    await db().deleteFrom('users').where('id', '=', newcomer).execute();
  });

  it('does not cache a page read while the pages were dropped', async () => {
    if (isPostgres(db())) return;
    const { members } = presenter();
    const pages = { firstPage: members.firstSearchPage };
    let reads = 0;
    const read = () => {
      reads += 1;
      members.invalidate.profileChanged(ids[0] ?? '');
      return Promise.resolve([]);
    };
    await pages.firstPage('triples:20:car', read);
    await pages.firstPage('triples:20:car', read);
    expect(reads).toBe(2);
  });
});
