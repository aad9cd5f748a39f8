import path from 'node:path';
import { parseArgs } from 'node:util';
import { mediaDirOf } from '../app/app';
import { ConfigError, loadConfig } from '../app/config';
import { BackupError, backupSqlite, defaultBackupDir, restoreSqlite } from '../platform/db/backup';
import { targetFromConfig } from '../platform/db/database';

/**
 * `npm run backup [-- <folder>]` and `npm run restore -- <backup folder> [--force]`, on the
 * instance that DATA_DIR and DATABASE_URL name, as for the server.
 */

const USAGE = `usage: npm run backup [-- <folder>]
       npm run restore -- <backup folder> [--force]`;

const postgresAdvice = (mediaDir: string) =>
  `perch: DATABASE_URL is set: back PostgreSQL up with its own tools, then copy the media folder.
  back up:  pg_dump --format=custom --file=perch.dump "$DATABASE_URL"
            cp -R "${mediaDir}" media
  restore:  pg_restore --clean --if-exists --dbname="$DATABASE_URL" perch.dump
            cp -R media/. "${mediaDir}/"
See "Backups" in README.md.`;

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

function readArgs(args: string[], withForce: boolean) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: withForce ? { force: { type: 'boolean', default: false } } : {},
    });
  } catch (error) {
    return fail(`perch: ${(error as Error).message}\n${USAGE}`, 2);
  }
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (command !== 'backup' && command !== 'restore') fail(USAGE, 2);
  const { values, positionals } = readArgs(args, command === 'restore');

  let config;
  try {
    config = loadConfig(process.env, { webDir: null });
  } catch (error) {
    if (error instanceof ConfigError) fail(`perch: ${error.message}`);
    throw error;
  }
  const target = targetFromConfig(config);
  if (target.kind === 'postgres') fail(postgresAdvice(mediaDirOf(config)));
  const layout = { databaseFile: target.filename, mediaDir: mediaDirOf(config) };

  if (command === 'backup') {
    if (positionals.length > 1) fail(USAGE, 2);
    const destination = path.resolve(positionals[0] ?? defaultBackupDir(config.dataDir));
    const result = await backupSqlite(layout, destination);
    for (const key of result.missingMedia) {
      console.warn(`perch: media/${key} was removed before it could be copied`);
    }
    console.log(`backup written to ${result.destination} (${result.mediaFiles} media files)`);
    return;
  }

  const [backupDir] = positionals;
  if (backupDir === undefined || positionals.length > 1) fail(USAGE, 2);
  const result = await restoreSqlite(path.resolve(backupDir), layout, {
    force: values.force === true,
  });
  console.log(
    `${result.replaced ? 'replaced' : 'restored'} ${layout.databaseFile} from ${path.resolve(backupDir)}` +
      ` (${result.mediaFiles} media files copied); start the server to use it`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof BackupError) fail(`perch: ${error.message}`);
  console.error(error);
  process.exit(1);
});
