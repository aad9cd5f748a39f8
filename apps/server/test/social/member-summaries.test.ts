import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PublishedEvent } from '@perch/contract';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase } from '../../src/platform/db/database';
import { migrateToLatest } from '../../src/platform/db/migrate';
import { newId } from '../../src/lib/ids';
import { answerJson } from '../../src/lib/serialized';
import { createMemberPresenter } from '../../src/read-model/member/presenter';
import { createMemberSummaries } from '../../src/read-model/member/summaries';
import { handOnTo } from '../read-model-views';
import { createTestDatabase, type TestDatabase } from '../test-database';

/** The answer as text, whether it was written as a string or as bytes. */
const stringifyAnswer = (payload: unknown) => String(answerJson(payload));

let dataDir: string;
let database: TestDatabase;
const ids: string[] = [];

async function rename(id: string, firstName: string): Promise<void> {
  await database.handle.db
    .updateTable('users')
    .set({ first_name: firstName })
    .where('id', '=', id)
    .execute();
}

const event = (type: 'profile.edited' | 'member.deleted', userId: string) =>
  ({ type, payload: { userId } }) as unknown as PublishedEvent;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'perch-stubs-'));
  database = await createTestDatabase(dataDir);
  await migrateToLatest(database.handle.db as Kysely<unknown>);
  const now = Date.now();
  for (let i = 0; i < 3; i += 1) {
    const id = newId(now + i);
    ids.push(id);
    await database.handle.db
      .insertInto('users')
      .values({
        id,
        username: `stub_member_${i}`,
        first_name: `First ${i}`,
        last_name: `Last "${i}"`,
        email: `stub${i}@example.com`,
        password_hash: 'x',
        avatar_url: i === 0 ? null : `/media/avatar-${i}.webp`,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
});
afterAll(async () => {
  await closeDatabase(database.handle);
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('member summaries', () => {
  it('answers the members that exist, in the order asked, written as JSON.stringify writes', async () => {
    const stubs = createMemberSummaries({ reads: database.handle.reads, max: 10 });
    const [a = '', b = '', c = ''] = ids;
    const asked = [c, newId(), a, b];
    const found = await stubs.of(asked);
    expect(found.map((stub) => stub._id)).toEqual([c, a, b]);
    expect(found[1]).toEqual({
      _id: a,
      id: a,
      username: 'stub_member_0',
      firstName: 'First 0',
      lastName: 'Last "0"',
      avatarURL: null,
    });
    const answer = { user: { followers: found } };
    expect(stringifyAnswer(answer)).toBe(JSON.stringify(answer));
    // Kept: the same objects again.
    expect(await stubs.of(asked)).toEqual(found);
    expect((await stubs.of([b]))[0]).toBe(found[2]);
  });

  it("caches a summary until its member's profile changes or they leave", async () => {
    const members = createMemberPresenter({
      reads: database.handle.reads,
      maxSummaries: 10,
      maxViews: 10,
      maxFollowees: 10,
      maxFolloweesPerMember: 10,
      maxSearchPages: 0,
    });
    const stubs = { of: members.summaries };
    const handOn = handOnTo({ members: members.invalidate });
    const [a = '', b = ''] = ids;
    await stubs.of([a, b]);
    await rename(a, 'Changed A');
    await rename(b, 'Changed B');
    expect((await stubs.of([a, b])).map((stub) => stub.firstName)).toEqual(['First 0', 'First 1']);

    handOn([event('profile.edited', a)]);
    expect((await stubs.of([a, b])).map((stub) => stub.firstName)).toEqual([
      'Changed A',
      'First 1',
    ]);
    handOn([event('member.deleted', b)]);
    expect((await stubs.of([b]))[0]?.firstName).toBe('Changed B');
    await rename(a, 'First 0');
    await rename(b, 'First 1');
  });

  it('does not cache what it read while a change was being dropped', async () => {
    const stubs = createMemberSummaries({ reads: database.handle.reads, max: 10 });
    const [a = ''] = ids;
    const reading = stubs.of([a]);
    stubs.forget(a);
    await reading;
    await rename(a, 'Later');
    expect((await stubs.of([a]))[0]?.firstName).toBe('Later');
    await rename(a, 'First 0');
  });
});
