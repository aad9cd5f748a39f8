/**
 * Before and after in one run (`--compare <git-ref>`): the server of another ref, built in a
 * worktree (lib/worktree.ts), and this checkout's, each on its own copy of the same instance with
 * the same signed-in members, both running; each selected scenario in rounds that alternate
 * between them (before, after; then after, before; …), so both see the machine at the same speed.
 * Prints each side's figures (min / median / max of the rounds) and after ÷ before of the medians.
 */
import { signIn, workingCopy, type RunCopy } from './lib/copy';
import type { Instance } from './lib/instance';
import {
  formatSpread,
  mb,
  type Scenario,
  type ScenarioResult,
  type ScenarioRound,
} from './lib/load';
import { log } from './lib/log';
import { memoryOf, type RunningServer } from './lib/proc';
import { Prng } from './lib/prng';
import { formatTable } from './lib/table';
import { warmTimelines } from './lib/timelines-ready';
import { buildRef, type RefBuild } from './lib/worktree';
import { loadFor, prepareMembers } from './run/members';
import type { RunOptions } from './run/options';
import { startPerch, warmUp } from './run/perch';
import { prepareInstance, serverEnv } from './run/prepare';
import { resultOf, runRound, scenarioLine, warmScenario, type Load } from './run/scenario';
import { selectScenarios } from './run/select';

export interface ComparedScenario {
  name: string;
  before: ScenarioResult;
  after: ScenarioResult;
}

export interface CompareResult {
  ref: string;
  commit: string;
  rounds: number;
  scenarios: ComparedScenario[];
  /** Each server's peak resident memory (VmHWM) when the scenarios were done, MB. */
  peakRssMB: { before: number | null; after: number | null };
}

interface Side {
  label: 'before' | 'after';
  server: RunningServer;
  copy: RunCopy;
}

/** Both servers on their copies, members signed in on both, Homes built and code warmed. */
async function startSides(options: RunOptions, instance: Instance, before: RefBuild) {
  const { copy } = await prepareInstance(instance, { build: options.build, web: false });
  const beforeCopy = await workingCopy(instance, 'before');
  const prng = new Prng(options.seed, 'load');
  const prepared = await prepareMembers(copy, prng, {
    memberCount: options.memberCount,
    signEveryone: false,
  });
  // The same sessions on the other copy: the same tokens work on both servers.
  const signedIn = new Map(
    [...prepared.members, prepared.celebrity].map((member) => [member.index, member]),
  );
  await signIn(beforeCopy, prepared.secret, [...signedIn.values()]);
  const load = loadFor(prepared, prng);
  const env = (target: typeof copy) => ({ ...serverEnv(target, prepared.secret), WEB_DIR: '' });
  const sides: Side[] = [];
  try {
    sides.push({
      label: 'before',
      copy: beforeCopy,
      server: await startPerch(options, env(beforeCopy), `Before: ${before.ref}`, {
        serverJs: before.serverJs,
        cwd: before.dir,
      }),
    });
    sides.push({
      label: 'after',
      copy,
      server: await startPerch(options, env(copy), 'After: this tree'),
    });
  } catch (error) {
    for (const side of sides) await side.server.stop();
    throw error;
  }
  for (const side of sides) {
    const ready = await warmTimelines(side.server.url, prepared.members, side.copy.runner);
    log(`  ${side.label}: ${ready.built} Home timelines built in ${ready.seconds.toFixed(1)} s`);
  }
  return { sides, load };
}

/** One scenario's rounds, alternating the order of the two servers each round. */
async function compareScenario(
  options: RunOptions,
  sides: Side[],
  load: Load,
  scenario: Scenario,
): Promise<ComparedScenario> {
  load.writes.current = scenario.name;
  const rounds = new Map<Side, ScenarioRound[]>(sides.map((side) => [side, []]));
  for (const side of sides) await warmScenario(options, side.server, scenario, '/api/health');
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      rounds.get(side)?.push(await runRound(options, side.server, scenario, '/api/health'));
    }
  }
  const resultFor = (side: Side | undefined) => {
    if (!side) throw new Error('a side is missing');
    const memory = memoryOf(side.server.pid);
    return resultOf(
      { name: `${scenario.name} (${side.label})`, what: scenario.what },
      rounds.get(side) ?? [],
      0,
      { rssMB: memory ? mb(memory.rss) : null, sampleFailure: null },
    );
  };
  const compared = {
    name: scenario.name,
    before: resultFor(sides[0]),
    after: resultFor(sides[1]),
  };
  log(scenarioLine(compared.before));
  log(scenarioLine(compared.after));
  return compared;
}

const ratio = (after: number | null, before: number | null) =>
  after === null || before === null || before === 0 ? '-' : `${(after / before).toFixed(2)}×`;

/** The before / after / ratio table: req/s, p99 at half rate and CPU per request. */
export function compareReport(result: CompareResult): string[] {
  const table: string[][] = [
    ['scenario', 'side', 'req/s', 'p50 ms', 'p99 ms', 'p99.9 ms', 'CPU µs/req', 'non-2xx'],
  ];
  for (const { name, before, after } of result.scenarios) {
    for (const [side, r] of [
      ['before', before],
      ['after', after],
    ] as const) {
      table.push([
        name,
        side,
        formatSpread(r.spread.rps),
        formatSpread(r.spread.p50, 2),
        formatSpread(r.spread.p99, 2),
        formatSpread(r.spread.p999, 2),
        formatSpread(r.spread.cpuUsPerRequest),
        String(r.non2xx + r.errors),
      ]);
    }
    table.push([
      name,
      'after ÷ before',
      ratio(after.rps, before.rps),
      ratio(after.p50, before.p50),
      ratio(after.p99, before.p99),
      ratio(after.p999, before.p999),
      ratio(after.cpuUsPerRequest, before.cpuUsPerRequest),
      '',
    ]);
  }
  return [
    `Before (${result.ref}, ${result.commit.slice(0, 12)}) and after (this tree) in the same run: min / median / max of ${result.rounds} rounds each, the two servers taking turns every round; the ratio is of the medians.`,
    ...formatTable(table),
    `Peak RSS (VmHWM): before ${String(result.peakRssMB.before ?? '-')} MB, after ${String(result.peakRssMB.after ?? '-')} MB.`,
  ];
}

export async function runCompare(options: RunOptions, instance: Instance): Promise<CompareResult> {
  const ref = options.compare ?? 'HEAD';
  const before = buildRef(ref, log);
  const { sides, load } = await startSides(options, instance, before);
  try {
    const selected = selectScenarios(options, load.scenarios);
    for (const side of sides) {
      await warmUp({ options, perch: side.server, load }, selected, false);
    }
    const scenarios: ComparedScenario[] = [];
    const firstWrite = selected.find((scenario) => scenario.write);
    log();
    log(`Scenarios, ${options.rounds} rounds each, the servers taking turns:`);
    for (const scenario of selected) {
      if (scenario === firstWrite) {
        for (const side of sides) {
          await warmUp({ options, perch: side.server, load }, selected, true);
        }
      }
      scenarios.push(await compareScenario(options, sides, load, scenario));
    }
    const peak = (label: Side['label']) => {
      const side = sides.find((candidate) => candidate.label === label);
      const memory = side ? memoryOf(side.server.pid) : null;
      return memory ? mb(memory.peak) : null;
    };
    return {
      ref,
      commit: before.commit,
      rounds: options.rounds,
      scenarios,
      peakRssMB: { before: peak('before'), after: peak('after') },
    };
  } finally {
    for (const side of sides) await side.server.stop();
  }
}
