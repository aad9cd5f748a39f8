import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app/app';
import {
  BackupError,
  backupSqlite,
  defaultBackupDir,
  restoreSqlite,
  type SqliteLayout,
} from '../../src/platform/db/backup';
import type { Member } from '../factories';
import { createTestApp, testConfig, type TestApp } from '../helpers';
import { MINIMAL, createMembers, createPost, follow, uploadImage } from '../social/social-helpers';
import { testDatabaseKind } from '../test-database';
import { expectRestored, runBackupCli, startWriting } from './backup-helpers';

const layoutOf = (dataDir: string): SqliteLayout => ({
  databaseFile: path.join(dataDir, 'perch.db'),
  mediaDir: path.join(dataDir, 'media'),
});

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(name: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `perch-${name}-`));
  cleanups.push(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

interface LiveInstance {
  t: TestApp;
  members: [Member, Member, Member];
  imageUrl: string;
}

/** A serving instance with members who follow each other and a post showing an upload. */
async function liveInstance(): Promise<LiveInstance> {
  const t = await createTestApp();
  cleanups.push(() => t.close());
  const members = await createMembers(t.app, 3);
  for (const [index, member] of members.entries()) {
    const next = members[(index + 1) % members.length];
    if (next)
      expect((await follow(t.app, member.token, next.user._id, MINIMAL)).statusCode).toBe(200);
  }
  const [owner] = members;
  const imageUrl = await uploadImage(t.app, owner.token);
  await createPost(t.app, owner.token, 'a picture', imageUrl);
  return { t, members, imageUrl };
}

/** The app on a restored DATA_DIR, as the server would start on it. */
async function openApp(dataDir: string): Promise<FastifyInstance> {
  const app = await buildApp(testConfig(dataDir), { logger: false });
  cleanups.push(() => app.close());
  return app;
}

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe.runIf(testDatabaseKind() === 'sqlite')('backup and restore', () => {
  it(
    'restores every write acknowledged before an online backup, with its media',
    { timeout: 60_000 },
    async () => {
      const { t, members, imageUrl } = await liveInstance();
      const writing = startWriting(t.app, members);
      await writing.waitForPosts(30);

      writing.markBackupStarted();
      const destination = defaultBackupDir(t.config.dataDir);
      const backup = await backupSqlite(layoutOf(t.config.dataDir), destination);
      await writing.stop();

      expect(backup.missingMedia).toEqual([]);
      expect(backup.mediaFiles).toBe(2);
      expect(modeOf(destination)).toBe(0o700);
      expect(modeOf(path.join(destination, 'media'))).toBe(0o700);
      expect(readdirSync(destination).sort()).toEqual(['backup.json', 'media', 'perch.db']);
      for (const name of ['backup.json', 'perch.db']) {
        expect(modeOf(path.join(destination, name))).toBe(0o600);
      }

      const restoredDir = tempDir('restored');
      const restored = await restoreSqlite(destination, layoutOf(restoredDir));
      expect(restored).toEqual({ replaced: false, mediaFiles: 2 });
      expect(modeOf(path.join(restoredDir, 'perch.db'))).toBe(0o600);

      const app = await openApp(restoredDir);
      await expectRestored(app, restoredDir, writing.before, imageUrl);
      // Sessions of the backed-up instance still work, and the restored one takes writes.
      const [member] = members;
      const posted = await createPost(app, member.token, 'after the restore');
      expect(posted.content).toBe('after the restore');
    },
  );

  it(
    'backs up from a process of its own while the server writes, and restores from one',
    { timeout: 60_000 },
    async () => {
      const { t, members, imageUrl } = await liveInstance();
      const writing = startWriting(t.app, members);
      await writing.waitForPosts(30);

      writing.markBackupStarted();
      const destination = path.join(tempDir('backups'), 'nightly');
      const backup = await runBackupCli(['backup', destination], { DATA_DIR: t.config.dataDir });
      await writing.stop();
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toContain(`backup written to ${destination} (2 media files)`);
      // The server did not pause for the backup.
      expect(writing.writesSince()).toBeGreaterThan(0);

      const restoredDir = tempDir('restored');
      const restore = await runBackupCli(['restore', destination], { DATA_DIR: restoredDir });
      expect(restore.code, restore.stderr).toBe(0);

      const again = await runBackupCli(['restore', destination], { DATA_DIR: restoredDir });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('already exists; restoring replaces it, so pass --force');

      await expectRestored(await openApp(restoredDir), restoredDir, writing.before, imageUrl);
    },
  );

  it('refuses an existing database without --force, and one in use even with it', async () => {
    const { t } = await liveInstance();
    const destination = path.join(tempDir('backups'), 'one');
    await backupSqlite(layoutOf(t.config.dataDir), destination);

    const targetDir = tempDir('target');
    const app = await buildApp(testConfig(targetDir), { logger: false });
    let closed = false;
    cleanups.push(() => (closed ? undefined : app.close()));
    const [member] = await createMembers(app, 1);

    const target = layoutOf(targetDir);
    await expect(restoreSqlite(destination, target)).rejects.toThrow(
      new BackupError(
        `${target.databaseFile} already exists; restoring replaces it, so pass --force to go ahead`,
      ),
    );
    await expect(restoreSqlite(destination, target, { force: true })).rejects.toThrow(
      /is in use: stop the Perch server/,
    );
    // Left as it was.
    const response = await app.inject({ method: 'GET', url: `/api/users/${member.user.username}` });
    expect(response.statusCode).toBe(200);

    await app.close();
    closed = true;
    expect(await restoreSqlite(destination, target, { force: true })).toMatchObject({
      replaced: true,
    });
    const restored = await openApp(targetDir);
    const gone = await restored.inject({
      method: 'GET',
      url: `/api/users/${member.user.username}`,
    });
    expect(gone.statusCode).toBe(404);
  });

  it('refuses a folder that holds no finished backup', async () => {
    const empty = tempDir('not-a-backup');
    await expect(restoreSqlite(empty, layoutOf(tempDir('target')))).rejects.toThrow(
      /is not a finished Perch backup/,
    );
  });

  it('points to pg_dump and pg_restore when DATABASE_URL is set', { timeout: 60_000 }, async () => {
    const env = {
      DATA_DIR: tempDir('pg'),
      DATABASE_URL: 'postgres://perch@127.0.0.1:1/perch',
      JWT_SECRET: 'a-secret-long-enough-for-the-configuration',
    };
    const [backup, restore] = await Promise.all([
      runBackupCli(['backup'], env),
      runBackupCli(['restore', 'somewhere'], env),
    ]);
    for (const run of [backup, restore]) {
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('pg_dump --format=custom');
      expect(run.stderr).toContain('pg_restore --clean --if-exists');
    }
  });
});
