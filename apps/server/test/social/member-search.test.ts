import { userPageSchema, userSchema, type User } from '@perch/contract';
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../../src/platform/db/dialect';
import type { Database } from '../../src/platform/db/schema';
import {
  searchUsers,
  type CandidateSource,
} from '../../src/modules/users/member-search.repository';
import { createMember, type Member } from '../factories';
import { firstQuerySent, sqlitePlanOf } from '../first-query';
import { call, createTestApp, type TestApp } from '../helpers';
import { block } from '../safety/safety-helpers';
import {
  bodyOf,
  createPost,
  deletePost,
  editProfile,
  expectError,
  follow,
  idsOf,
  unfollow,
  walk,
  withQuery,
} from './social-helpers';

let t: TestApp;
let harbour: Member;
let percent: Member;
let quoted: Member;
let accented: Member;
let emoji: Member;
let plain: Member;
beforeAll(async () => {
  t = await createTestApp();
  harbour = await createMember(t.app, {
    username: 'Harbour_Light',
    firstName: 'Marguerite',
    lastName: 'Oyelaran-Whitcombe',
  });
  percent = await createMember(t.app, {
    username: 'percent_off',
    firstName: '50%_off*',
    lastName: 'Back\\slash',
  });
  quoted = await createMember(t.app, {
    username: 'quoted_name',
    firstName: '"Nan" OR zoe',
    lastName: "O'Neil AND -x:y^*",
  });
  accented = await createMember(t.app, {
    username: 'accented',
    firstName: 'Zoë',
    lastName: 'Ångström',
  });
  emoji = await createMember(t.app, {
    username: 'emoji_fan',
    firstName: 'Sun🌞ny',
    lastName: 'Day',
  });
  plain = await createMember(t.app, {
    username: 'Ada_Plain',
    firstName: 'Ada',
    lastName: 'Lovelace',
  });
});
afterAll(async () => {
  await t.close();
});

const answer = (q: string, limit = 50) =>
  call(t.app, { method: 'GET', url: withQuery('/api/users', { q, limit }) });

const search = async (q: string): Promise<User[]> =>
  bodyOf(userPageSchema, await answer(q), 200).users;

const found = async (q: string): Promise<string[]> => idsOf(await search(q));

describe('member search', () => {
  it('finds a substring in the middle of any name, whatever its case', async () => {
    for (const q of ['rgueri', 'RGUERI', 'laran-whit', 'bour_li', 'BOUR_LI', 'arbour', 'ITCOMB']) {
      expect(await found(q), q).toEqual([harbour.user._id]);
    }
  });

  it('takes wildcard and query-syntax characters literally', async () => {
    const cases: [string, Member[]][] = [
      ['%_off*', [percent]],
      ['0%_', [percent]],
      ['%', [percent]],
      ['_', [harbour, plain, emoji, percent, quoted]],
      ['*', [percent, quoted]],
      ['k\\s', [percent]],
      ['\\', [percent]],
      ['"nan"', [quoted]],
      ['"', [quoted]],
      ['nan" or z', [quoted]],
      ["o'neil and", [quoted]],
      ['-x:y^*', [quoted]],
      ['a%e', []],
      ['m_r', []],
      ['ada*', []],
      ['lovelace"', []],
      ['NEAR(a b)', []],
      ['username:ada', []],
    ];
    for (const [q, members] of cases) {
      expect((await found(q)).sort(), q).toEqual(idsOf(members.map((m) => m.user)).sort());
    }
  });

  it('answers one and two characters with the same substring matches', async () => {
    expect(await found('ö')).toEqual([accented.user._id]);
    expect(await found('ov')).toEqual([plain.user._id]);
    expect(await found('OV')).toEqual([plain.user._id]);
    expect(await found('ng')).toEqual([accented.user._id]);
    const all = await search('a');
    for (const user of all) {
      expect([user.username, user.firstName, user.lastName].join(' ').toLowerCase()).toContain('a');
    }
    expect(idsOf(all)).toEqual(expect.arrayContaining([harbour.user._id, plain.user._id]));
  });

  it('finds names with characters outside ASCII, and emoji', async () => {
    expect(await found('zoë')).toEqual([accented.user._id]);
    expect(await found('ngstr')).toEqual([accented.user._id]);
    expect(await found('🌞')).toEqual([emoji.user._id]);
    expect(await found('n🌞n')).toEqual([emoji.user._id]);
    expect(await found('🌞🌞🌞')).toEqual([]);
  });

  it('lists matches in username order, page by page', async () => {
    const { items } = await walk(t.app, '/api/users', 'users', userSchema, {
      limit: 1,
      query: { q: 'ada' },
    });
    expect(idsOf(items)).toEqual([plain.user._id]);
    const many = await walk(t.app, '/api/users', 'users', userSchema, {
      limit: 2,
      query: { q: 'e' },
    });
    const names = many.items.map((user) => user.username.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
    expect(idsOf(many.items)).toEqual(
      expect.arrayContaining([harbour.user._id, percent.user._id, quoted.user._id]),
    );
  });

  it('never fails on hostile text', async () => {
    for (const q of [
      "'",
      "''); drop table users; --",
      '"""',
      '*',
      '^',
      '(',
      ')',
      ':',
      '-',
      '🌞'.repeat(50),
    ]) {
      expect((await answer(q)).statusCode, q).toBe(200);
    }
    expect((await answer('ä'.repeat(100))).statusCode).toBe(200);
    expectError(await answer('q'.repeat(101)), 400, 'Search text must be at most 100 characters.');
    expect((await answer('a\u0000b')).statusCode).toBe(400);
  });

  it('keeps up with new members and edited names', async () => {
    const newcomer = await createMember(t.app, { firstName: 'Peregrine', lastName: 'Falconer' });
    expect(await found('regrin')).toEqual([newcomer.user._id]);
    const response = await call(t.app, {
      method: 'POST',
      url: '/api/users/edit',
      token: newcomer.token,
      payload: { userData: { firstName: 'Kittiwake', lastName: 'Falconer' } },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await found('regrin')).toEqual([]);
    expect(await found('TTIWAK')).toEqual([newcomer.user._id]);
    expect(await found('lcone')).toEqual([newcomer.user._id]);
  });
});

/** The SQL searchUsers sends. */
function searchSql(
  db: Kysely<Database>,
  text: string,
  via: CandidateSource,
): Promise<CompiledQuery> {
  return firstQuerySent(db, (catching) => searchUsers(catching, { ...everyone, text, via }));
}

async function planOf(db: Kysely<Database>, text: string, via: CandidateSource): Promise<string> {
  const query = await searchSql(db, text, via);
  if (!isPostgres(db)) return sqlitePlanOf(db, query);
  // A handful of members is read fastest from the table itself; the question here is whether the
  // index can answer the query at all.
  return db.connection().execute(async (connection) => {
    await sql`set enable_seqscan = off`.execute(connection);
    await sql`set enable_indexscan = off`.execute(connection);
    try {
      const rows = await connection.executeQuery<{ 'QUERY PLAN': string }>({
        ...query,
        sql: `explain ${query.sql}`,
      });
      return rows.rows.map((row) => row['QUERY PLAN']).join('\n');
    } finally {
      await sql`reset enable_seqscan`.execute(connection);
      await sql`reset enable_indexscan`.execute(connection);
    }
  });
}

const everyone = { afterUsername: null, limit: 50 } as const;

/** SQLite's lower() folds ASCII letters only; the pairs are cut with it. */
const sqliteLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

type PairRow = [gram: string, lowerUsername: string, userId: string];
const byPair = (a: PairRow, b: PairRow) => a.join('\u0000').localeCompare(b.join('\u0000'));

async function storedPairs(db: Kysely<Database>): Promise<PairRow[]> {
  const rows = await db.selectFrom('member_name_pairs').selectAll().execute();
  return rows.map((row): PairRow => [row.pair, row.lower_username, row.user_id]).sort(byPair);
}

async function storedTriples(db: Kysely<Database>): Promise<PairRow[]> {
  const rows = await db.selectFrom('member_name_triples').selectAll().execute();
  return rows.map((row): PairRow => [row.triple, row.lower_username, row.user_id]).sort(byPair);
}

/** Every distinct run of `size` adjacent characters of each member's three names. */
async function expectedPairs(db: Kysely<Database>, size = 2): Promise<PairRow[]> {
  const users = await db
    .selectFrom('users')
    .select(['id', 'username', 'first_name', 'last_name'])
    .execute();
  const pairs = new Map<string, PairRow>();
  for (const user of users) {
    const lowerUsername = sqliteLower(user.username);
    for (const name of [user.username, user.first_name, user.last_name]) {
      const chars = Array.from(sqliteLower(name));
      for (let i = 0; i + size <= chars.length; i += 1) {
        const row: PairRow = [chars.slice(i, i + size).join(''), lowerUsername, user.id];
        pairs.set(row.join('\u0000'), row);
      }
    }
  }
  return [...pairs.values()].sort(byPair);
}

const userRow = (id: string, firstName: string, lastName: string) => {
  const now = Date.now();
  return {
    id,
    username: `u_${id}`,
    first_name: firstName,
    last_name: lastName,
    email: `${id}@example.com`,
    password_hash: 'x',
    created_at: now,
    updated_at: now,
  };
};

describe('the search index', () => {
  it('answers text of three characters or more', async () => {
    const db = t.app.db;
    if (isPostgres(db)) {
      expect(await planOf(db, 'rgu', 'order')).toMatch(/users_search_trgm_idx/);
      return;
    }
    expect(await planOf(db, 'rgu', 'trigrams')).toMatch(/users_search/);
    // Without it, members are read in the order of the answer, and reading stops with the page.
    expect(await planOf(db, 'rg', 'order')).toMatch(/SCAN u USING INDEX users_username_lower_key/);
    expect(await planOf(db, 'rg', 'order')).not.toMatch(/TEMP B-TREE/);
  });

  it('answers two characters from the members holding that pair, in username order', async () => {
    const db = t.app.db;
    if (isPostgres(db)) return;
    const plan = await planOf(db, 'rg', 'pairs');
    expect(plan).toMatch(/SEARCH mp USING PRIMARY KEY \(pair=\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE|SCAN u/);
  });

  it('answers three characters from the members holding that triple, in username order', async () => {
    const db = t.app.db;
    if (isPostgres(db)) return;
    const plan = await planOf(db, 'rgu', 'triples');
    expect(plan).toMatch(/SEARCH mt USING PRIMARY KEY \(triple=\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE|SCAN u/);
  });

  it('finds through pairs and triples exactly the members the LIKEs match', async () => {
    const db = t.app.db;
    if (isPostgres(db)) return;
    // Every two and three characters of the members' names, as written, lower- and upper-cased:
    // pairs and triples are read without the LIKEs, so they must hold all of these and no other.
    const names = [harbour, percent, quoted, accented, emoji, plain].flatMap((member) => [
      member.user.username,
      member.user.firstName,
      member.user.lastName,
    ]);
    const fragments = new Set<string>();
    for (const name of names) {
      const characters = Array.from(name);
      for (const length of [2, 3]) {
        for (let at = 0; at + length <= characters.length; at += 1) {
          const fragment = characters.slice(at, at + length).join('');
          for (const text of [fragment, fragment.toLowerCase(), fragment.toUpperCase()]) {
            fragments.add(text);
          }
        }
      }
    }
    expect(fragments.size).toBeGreaterThan(300);
    for (const text of fragments) {
      const via: CandidateSource = Array.from(text).length === 2 ? 'pairs' : 'triples';
      const inOrder = await searchUsers(db, { ...everyone, text, via: 'order' });
      const viaIndex = await searchUsers(db, { ...everyone, text, via });
      expect(
        viaIndex.map((row) => row.id),
        `${text} via ${via}`,
      ).toEqual(inOrder.map((row) => row.id));
    }
  });

  it('answers the same whichever way the members are found', async () => {
    const db = t.app.db;
    const crowd = Array.from({ length: 600 }, (_, i) =>
      userRow(`crowd${String(i).padStart(4, '0')}`, 'Crowd', `Member ${i}`),
    );
    await db.insertInto('users').values(crowd).execute();
    try {
      for (const text of ['crowd', 'MEMBER 10', 'ember 599', 'ada', 'rgu', 'zzz', 'ow', 'R ']) {
        const inOrder = await searchUsers(db, { ...everyone, text, via: 'order' });
        const length = Array.from(text).length;
        const sources: CandidateSource[] = isPostgres(db)
          ? ['order']
          : length === 2
            ? ['pairs']
            : length === 3
              ? ['trigrams', 'triples']
              : ['trigrams'];
        for (const via of sources) {
          const viaIndex = await searchUsers(db, { ...everyone, text, via });
          expect(
            viaIndex.map((row) => row.id),
            `${text} via ${via}`,
          ).toEqual(inOrder.map((row) => row.id));
        }
      }
      const after = { ...everyone, text: 'ow', afterUsername: 'u_crowd0300', limit: 5 };
      const nextViaPairs = await searchUsers(db, {
        ...after,
        via: isPostgres(db) ? 'order' : 'pairs',
      });
      expect(nextViaPairs.map((row) => row.lower_username)).toEqual(
        (await searchUsers(db, { ...after, via: 'order' })).map((row) => row.lower_username),
      );
      expect(nextViaPairs[0]?.lower_username).toBe('u_crowd0301');
      // More members hold "crowd" than the index is asked for: they are read in username order.
      const page = await search('crowd');
      expect(page.map((user) => user.username)).toEqual(
        crowd.slice(0, 50).map((row) => row.username),
      );
      expect(await found('ember 599')).toEqual(['crowd0599']);
    } finally {
      await db.deleteFrom('users').where('id', 'like', 'crowd%').execute();
    }
  });

  it('stays equal to the members it indexes after inserts, edits and deletes', async () => {
    if (isPostgres(t.app.db)) return;
    const db = t.app.db;
    await db
      .insertInto('users')
      .values([userRow('tmp1', 'Transient', 'Visitor'), userRow('tmp2', 'Transient', 'Visitor')])
      .execute();
    await db.updateTable('users').set({ last_name: 'Wanderer' }).where('id', '=', 'tmp1').execute();
    await db.updateTable('users').set({ followers_count: 3 }).where('id', '=', 'tmp2').execute();
    expect(await found('wandere')).toEqual(['tmp1']);
    await db.deleteFrom('users').where('id', 'in', ['tmp1', 'tmp2']).execute();
    expect(await found('ransien')).toEqual([]);
    // Compares every index entry with the rows of users.
    await sql`insert into users_search (users_search, rank) values ('integrity-check', 1)`.execute(
      db,
    );
    expect(await storedPairs(db)).toEqual(await expectedPairs(db));
    expect(await storedTriples(db)).toEqual(await expectedPairs(db, 3));
  });

  it('keeps every pair of characters of every member, and no other', async () => {
    const db = t.app.db;
    if (isPostgres(db)) return;
    const pairs = await storedPairs(db);
    expect(pairs).toEqual(await expectedPairs(db));
    expect(pairs).toContainEqual(['🌞n', 'emoji_fan', emoji.user._id]);
    expect(pairs).toContainEqual(['Ån', 'accented', accented.user._id]);
    const triples = await storedTriples(db);
    expect(triples).toEqual(await expectedPairs(db, 3));
    expect(triples).toContainEqual(['n🌞n', 'emoji_fan', emoji.user._id]);
    expect(triples).toContainEqual(['Ångs'.slice(0, 3), 'accented', accented.user._id]);
  });
});

// Last: the members it makes would match the searches above.
describe('member search after changes', () => {
  it("lists counts, profiles and the viewer's follows as they are right after each change", async () => {
    const reader = await createMember(t.app, { username: 'kestrel_reader', firstName: 'Wren' });
    const author = await createMember(t.app, { username: 'kestrel_author', firstName: 'Wren' });
    const listedBy = async (member: Member | null) => {
      const response = await call(t.app, {
        method: 'GET',
        url: withQuery('/api/users', { q: 'kestrel_' }),
        token: member?.token,
      });
      const users = bodyOf(userPageSchema, response, 200).users;
      return new Map(users.map((user) => [user.username, user]));
    };
    const seen = async (member: Member | null, username: string) => {
      const user = (await listedBy(member)).get(username);
      if (!user) throw new Error(`${username} not listed`);
      return user;
    };

    expect(await seen(reader, 'kestrel_author')).toMatchObject({
      followersCount: 0,
      followedByViewer: false,
    });
    const own = await seen(reader, 'kestrel_reader');
    expect(own.email).toBe(reader.user.email);
    expect(own.followedByViewer).toBe(false);
    expect((await seen(author, 'kestrel_reader')).email).toBeUndefined();
    expect((await seen(null, 'kestrel_author')).followedByViewer).toBeUndefined();

    await follow(t.app, reader.token, author.user._id);
    expect(await seen(reader, 'kestrel_author')).toMatchObject({
      followersCount: 1,
      followedByViewer: true,
    });
    expect((await seen(author, 'kestrel_reader')).followingCount).toBe(1);

    const post = await createPost(t.app, author.token, 'A kestrel hovers');
    expect((await seen(reader, 'kestrel_author')).postsCount).toBe(1);
    await deletePost(t.app, author.token, post._id);
    expect((await seen(reader, 'kestrel_author')).postsCount).toBe(0);

    // First pages are kept: a name edited and a member registered show at once.
    expect(await found('hover')).toEqual([]);
    await editProfile(t.app, author.token, { firstName: 'Wren', lastName: 'Hover', bio: 'Fields' });
    expect(await found('hover')).toEqual([author.user._id]);
    const late = await createMember(t.app, { username: 'kestrel_late', lastName: 'Hovering' });
    expect(await found('hover')).toEqual([author.user._id, late.user._id]);
    expect(await seen(reader, 'kestrel_author')).toMatchObject({
      lastName: 'Hover',
      bio: 'Fields',
    });

    await unfollow(t.app, reader.token, author.user._id);
    expect(await seen(reader, 'kestrel_author')).toMatchObject({
      followersCount: 0,
      followedByViewer: false,
    });

    await follow(t.app, reader.token, author.user._id);
    await follow(t.app, author.token, reader.user._id);
    expect((await seen(null, 'kestrel_reader')).followersCount).toBe(1);
    // A block ends the follows both ways.
    await block(t.app, author, reader);
    const afterBlock = await listedBy(null);
    expect(afterBlock.get('kestrel_reader')).toMatchObject({
      followersCount: 0,
      followingCount: 0,
    });
    expect(afterBlock.get('kestrel_author')).toMatchObject({
      followersCount: 0,
      followingCount: 0,
    });
    expect((await listedBy(reader)).has('kestrel_author')).toBe(false);
  });
});
