/**
 * The server of another git ref, built beside this checkout: a detached `git worktree` under
 * bench-data/compare/, whose node_modules links every package to this checkout's except the
 * workspace's own (its contract is bundled from its own source), built with its own build.mjs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './instance';

export interface RefBuild {
  ref: string;
  commit: string;
  /** The worktree's root, the server's working directory. */
  dir: string;
  serverJs: string;
}

const git = (args: string[], cwd = ROOT) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** Workspace packages, linked to the worktree's own copies. */
const WORKSPACES: Record<string, string> = {
  contract: 'packages/contract',
  server: 'apps/server',
  web: 'apps/web',
};

/** The worktree's node_modules: this checkout's packages, the workspace's own from the worktree. */
function linkModules(dir: string): void {
  const modules = path.join(dir, 'node_modules');
  rmSync(modules, { recursive: true, force: true });
  mkdirSync(path.join(modules, '@perch'), { recursive: true });
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === '@perch') continue;
    symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(modules, entry));
  }
  for (const [name, workspace] of Object.entries(WORKSPACES)) {
    symlinkSync(path.join(dir, workspace), path.join(modules, '@perch', name));
  }
  for (const workspace of Object.values(WORKSPACES)) {
    const own = path.join(ROOT, workspace, 'node_modules');
    const target = path.join(dir, workspace, 'node_modules');
    if (existsSync(own) && !existsSync(target)) symlinkSync(own, target);
  }
}

/** The worktree of `ref` (made when missing) with its server built; reused when already built. */
export function buildRef(ref: string, log: (line?: string) => void): RefBuild {
  const commit = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const dir = path.join(ROOT, 'bench-data', 'compare', commit.slice(0, 12));
  const serverJs = path.join(dir, 'apps/server/dist/server.js');
  if (existsSync(serverJs)) {
    log(`Server of ${ref} (${commit.slice(0, 12)}): reusing ${path.relative(ROOT, serverJs)}`);
    return { ref, commit, dir, serverJs };
  }
  if (existsSync(dir)) {
    git(['worktree', 'remove', '--force', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
  git(['worktree', 'prune']);
  git(['worktree', 'add', '--detach', dir, commit]);
  linkModules(dir);
  log(`Building the server of ${ref} (${commit.slice(0, 12)}) in ${path.relative(ROOT, dir)}…`);
  execFileSync(process.execPath, ['build.mjs'], {
    cwd: path.join(dir, 'apps/server'),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return { ref, commit, dir, serverJs };
}
