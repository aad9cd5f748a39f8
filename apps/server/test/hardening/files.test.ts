import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaDirOf } from '../../src/app/app';
import { createTestApp, type TestApp } from '../helpers';
import { createMembers, createPost, uploadImage } from '../social/social-helpers';
import { testDatabaseKind } from '../test-database';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seedDemoData: true });
});
afterAll(async () => {
  await t.close();
});

const modeOf = (file: string) => statSync(file).mode & 0o777;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? [full, ...walk(full)] : [full];
  });
}

describe('files in DATA_DIR', () => {
  it.runIf(testDatabaseKind() === 'sqlite')(
    'keeps the database and its -wal/-shm to their owner (0600)',
    async () => {
      const [member] = await createMembers(t.app, 1);
      await createPost(t.app, member.token, 'a write, so the WAL exists');
      const db = path.join(t.config.dataDir, 'perch.db');
      for (const file of [db, `${db}-wal`, `${db}-shm`]) {
        expect(existsSync(file), file).toBe(true);
        expect(modeOf(file).toString(8), file).toBe('600');
      }
    },
  );

  it('keeps uploaded and demo media to their owner (files 0600, folders 0700)', async () => {
    const [member] = await createMembers(t.app, 1);
    await uploadImage(t.app, member.token);
    const entries = walk(mediaDirOf(t.config));
    const files = entries.filter((entry) => statSync(entry).isFile());
    expect(files.some((file) => file.endsWith('.webp'))).toBe(true);
    expect(files.some((file) => file.includes(`${path.sep}demo${path.sep}`))).toBe(true);
    for (const entry of entries) {
      const expected = statSync(entry).isDirectory() ? '700' : '600';
      expect(modeOf(entry).toString(8), entry).toBe(expected);
    }
    expect(modeOf(mediaDirOf(t.config)).toString(8)).toBe('700');
  });
});
