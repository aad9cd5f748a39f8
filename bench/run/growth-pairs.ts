/**
 * Growth (see bench/growth.ts): the run's instance and a small one of the same seed, each with its
 * own server, both running; every read in alternating throughput slices on one and the other.
 */
import path from 'node:path';
import { growthRow, SMALL_POSTS, workLine, type GrowthResult, type GrowthSlice } from '../growth';
import type { RunCopy } from '../lib/copy';
import { formatCount, resolveInstance, type Instance } from '../lib/instance';
import { figures, kb, spreadOf, type Scenario } from '../lib/load';
import { log } from '../lib/log';
import { cpuSecondsOf, settle, type RunningServer } from '../lib/proc';
import { Prng } from '../lib/prng';
import { warmTimelines } from '../lib/timelines-ready';
import { loadFor, matchFollowing, prepareMembers, type PreparedMembers } from './members';
import { THROUGHPUT_CONNECTIONS, type RunOptions } from './options';
import { startPerch, warmUp } from './perch';
import { prepareInstance, serverEnv } from './prepare';
import { fireFor, type Load } from './scenario';

/** Rounds of a slice on each server; each round gives one growth per read. */
export const GROWTH_ROUNDS = 3;

interface PreparedSide {
  posts: number;
  copy: RunCopy;
  prepared: PreparedMembers;
  load: Load;
}

interface Running extends PreparedSide {
  server: RunningServer;
}

/** The small instance's own database on PostgreSQL: both servers run at once. */
export function smallDatabaseUrl(url: string | null): string | null {
  if (url === null) return null;
  const small = new URL(url);
  small.pathname = `${small.pathname}_${SMALL_POSTS}`;
  return small.toString();
}

/**
 * An instance copied afresh and its members prepared as the run's were: the run's copy holds what
 * its writes added (tens of thousands of posts by the load's members and by the most-followed
 * member), which its reads were measured before.
 */
async function preparedSide(
  options: RunOptions,
  instance: Instance,
  following?: readonly number[],
): Promise<PreparedSide> {
  const { copy } = await prepareInstance(instance, { build: false, web: false });
  const prng = new Prng(options.seed, 'load');
  const prepared = await prepareMembers(copy, prng, {
    memberCount: options.memberCount,
    signEveryone: false,
    ...(following ? { choose: (all) => matchFollowing(following, all) } : {}),
  });
  return { posts: instance.posts, copy, prepared, load: loadFor(prepared, prng) };
}

/** How many members each of the side's load members follows. */
const followingOf = (side: PreparedSide) =>
  side.prepared.members.map(
    (member) => side.prepared.allMembers[member.index]?.following_count ?? 0,
  );

const smallInstance = (options: RunOptions) =>
  resolveInstance({
    posts: SMALL_POSTS,
    seed: options.seed,
    databaseUrl: smallDatabaseUrl(options.databaseUrl),
  });

function scenarioOf(side: Running, name: string): Scenario {
  const scenario = side.load.scenarios.find((candidate) => candidate.name === name);
  if (!scenario) throw new Error(`no scenario ${name}`);
  return scenario;
}

/** One throughput slice of `name` on `side`; failed answers are counted in `failures`. */
async function slice(
  options: RunOptions,
  side: Running,
  name: string,
  seconds: number,
  failures: string[],
): Promise<GrowthSlice> {
  const { server } = side;
  const before = cpuSecondsOf(server.pid);
  const run = figures(
    await fireFor(
      options,
      server.url,
      scenarioOf(side, name).requests(),
      THROUGHPUT_CONNECTIONS,
      seconds,
    ),
  );
  const after = cpuSecondsOf(server.pid);
  await settle(server.url, '/api/health');
  if (run.errors + run.non2xx > 0) {
    failures.push(
      `${name} on ${formatCount(side.posts)} posts: ${run.errors} errors, ${run.non2xx} non-2xx`,
    );
  }
  return {
    requests: run.requests,
    cpuSeconds: before === null || after === null ? null : after - before,
    rps: run.rps,
    bytesPerAnswer: run.bytesPerAnswer,
  };
}

async function start(options: RunOptions, side: PreparedSide, reads: string[]): Promise<Running> {
  const env = serverEnv(side.copy, side.prepared.secret);
  // With --profile, each server's profile goes to a folder of its own.
  const profileDir = options.profileDir && path.join(options.profileDir, `growth-${side.posts}`);
  const server = await startPerch({ profileDir }, env, `Perch on ${formatCount(side.posts)} posts`);
  const running = { ...side, server };
  const ready = await warmTimelines(server.url, side.prepared.members, side.copy.runner);
  log(`  home timelines: ${formatCount(ready.built)} built in ${ready.seconds.toFixed(1)} s`);
  const scenarios = reads.map((name) => scenarioOf(running, name));
  await warmUp({ options, perch: server, load: side.load }, scenarios, false);
  return running;
}

/** Each of `reads` on `large` and on the small instance, round by round. */
export async function measureGrowth({
  options,
  large,
  reads,
  baselineRps,
}: {
  options: RunOptions;
  /** The run's instance. */
  large: Instance;
  reads: string[];
  baselineRps: number;
}): Promise<GrowthResult> {
  const sliceSeconds = Math.max(1, Math.round(options.throughputSeconds / GROWTH_ROUNDS));
  const result: GrowthResult = {
    smallPosts: SMALL_POSTS,
    largePosts: large.posts,
    rounds: GROWTH_ROUNDS,
    sliceSeconds,
    rows: [],
    work: null,
    error: null,
  };
  log();
  log(
    `Growth: the reads on ${formatCount(SMALL_POSTS)} and on ${formatCount(large.posts)} posts, both servers running, ${GROWTH_ROUNDS} rounds of ${sliceSeconds} s on each in turn:`,
  );
  const failures: string[] = [];
  const running: Running[] = [];
  try {
    // Equal work: the large instance's members are matched to the small one's by how many
    // members they follow, so both sides' Homes merge as many followed members' posts.
    const smallSide = await preparedSide(options, smallInstance(options));
    const largeSide = await preparedSide(options, large, followingOf(smallSide));
    result.work = {
      members: smallSide.prepared.members.length,
      followingSmall: spreadOf(followingOf(smallSide)),
      followingLarge: spreadOf(followingOf(largeSide)),
    };
    log(`  ${workLine(result.work)}`);
    running.push(await start(options, largeSide, reads));
    running.push(await start(options, smallSide, reads));
    const [bigger, smaller] = running as [Running, Running];
    for (const name of reads) {
      // A slice's worth first, untimed: the large instance's caches take longer to fill, and the
      // rounds measured after a short warm-up fell from the first to the last.
      for (const side of running) await slice(options, side, name, sliceSeconds, failures);
      const slices = { large: [] as GrowthSlice[], small: [] as GrowthSlice[] };
      for (let round = 0; round < GROWTH_ROUNDS; round++) {
        const largeFirst = round % 2 === 0;
        for (const side of largeFirst ? [bigger, smaller] : [smaller, bigger]) {
          const taken = await slice(options, side, name, sliceSeconds, failures);
          (side === bigger ? slices.large : slices.small).push(taken);
        }
      }
      const row = growthRow(name, slices.large, slices.small, baselineRps);
      result.rows.push(row);
      log(
        `  ${name.padEnd(20)} CPU ${String(row.small.cpuUsPerRequest ?? '-').padStart(5)} → ${String(row.large.cpuUsPerRequest ?? '-').padStart(5)} µs/req  growth ${row.cpuGrowth?.toFixed(2) ?? '-'}× (rounds ${row.rounds.map((value) => value?.toFixed(2) ?? '-').join(', ')})  ${kb(row.small.bytesPerAnswer)} → ${kb(row.large.bytesPerAnswer)} kB/answer`,
      );
    }
  } catch (error) {
    failures.push(error instanceof Error ? error.message : String(error));
  } finally {
    await Promise.all(running.map((side) => side.server.stop()));
  }
  if (failures.length > 0) result.error = failures.slice(0, 5).join('; ');
  return result;
}
