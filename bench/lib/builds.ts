/** Rebuilds the server and the web app when their dist is older than their sources. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './instance';

function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (target: string) => {
    if (!existsSync(target)) return;
    const stat = statSync(target);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(target)) {
        if (entry !== 'node_modules' && entry !== 'dist') visit(path.join(target, entry));
      }
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const target of paths) visit(path.join(ROOT, target));
  return newest;
}

function isStale(output: string, inputs: string[]): boolean {
  const file = path.join(ROOT, output);
  return !existsSync(file) || statSync(file).mtimeMs < newestMtime(inputs);
}

function npm(args: string[]) {
  execFileSync('npm', args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
}

export function ensureBuilds(options: { web: boolean; log: (line?: string) => void }): void {
  const { log } = options;
  const contract = ['packages/contract/src', 'packages/contract/package.json'];
  if (
    isStale('apps/server/dist/server.js', ['apps/server/src', 'apps/server/build.mjs', ...contract])
  ) {
    log('Building the server (dist is missing or older than its sources)…');
    npm(['run', 'build', '-w', '@perch/server']);
  }
  const webInputs = [
    'apps/web/src',
    'apps/web/index.html',
    'apps/web/public',
    'apps/web/vite.config.ts',
    ...contract,
  ];
  if (options.web && isStale('apps/web/dist/index.html', webInputs)) {
    log('Building the web app (dist is missing or older than its sources)…');
    try {
      npm(['run', 'build', '-w', '@perch/web']);
    } catch {
      log('  the web app did not build; its figures will be skipped');
    }
  }
}
