import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRunner, type SqlRunner } from './lib/instance';
import { pullQuery } from './timeline-check';

const id = (t: number) => ulid(t, () => 0.5);
const [A, B, ME, STRANGER] = ['A', 'B', 'ME', 'STRANGER'];
const post = { byA: id(1000), byStranger: id(2000), mine: id(3000), strangerOld: id(500) };

describe('the Home check’s pull query', () => {
  let dir: string;
  let runner: SqlRunner;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'perch-pull-'));
    const file = path.join(dir, 'home.db');
    const db = new SqliteDatabase(file);
    db.exec(`CREATE TABLE posts (id TEXT PRIMARY KEY, user_id TEXT, created_at INTEGER);
      CREATE TABLE follows (follower_id TEXT, followee_id TEXT);
      CREATE TABLE reposts (id TEXT PRIMARY KEY, post_id TEXT, user_id TEXT, created_at INTEGER);`);
    db.prepare('INSERT INTO follows VALUES (?, ?), (?, ?)').run(ME, A, ME, B);
    const addPost = db.prepare('INSERT INTO posts VALUES (?, ?, ?)');
    addPost.run(post.byA, A, 1000);
    addPost.run(post.byStranger, STRANGER, 2000);
    addPost.run(post.mine, ME, 3000);
    addPost.run(post.strangerOld, STRANGER, 500);
    const addRepost = db.prepare('INSERT INTO reposts VALUES (?, ?, ?, ?)');
    addRepost.run(id(4000), post.byStranger, A, 4000);
    addRepost.run(id(5000), post.byStranger, B, 5000);
    addRepost.run(id(2500), post.byA, B, 2500);
    // Reposts of the member's own post leave it in its place; strangers' reposts are not read.
    addRepost.run(id(6000), post.mine, A, 6000);
    addRepost.run(id(7000), post.strangerOld, STRANGER, 7000);
    db.close();
    runner = await openRunner({ kind: 'sqlite', file, readonly: true });
  });

  afterAll(async () => {
    await runner.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows each post once, at the newest repost by someone followed, naming that reposter', async () => {
    expect(await pullQuery(runner, ME, 10, 0)).toEqual([
      `${post.byStranger} reposted by ${B}`,
      post.mine,
      `${post.byA} reposted by ${B}`,
    ]);
  });

  it('gives the same rows through its time bound, or without it when the bound holds too few', async () => {
    expect(await pullQuery(runner, ME, 2, 2600)).toEqual([
      `${post.byStranger} reposted by ${B}`,
      post.mine,
    ]);
    expect(await pullQuery(runner, ME, 3, 2600)).toEqual(await pullQuery(runner, ME, 3, 0));
  });
});
