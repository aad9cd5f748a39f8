/**
 * Load benchmark of the production server on a generated instance.
 *
 *   npm run bench [-- --posts N] [--quick] [--only name,...] [--pg] [--explain] [--growth]
 *                 [--rounds N] [--compare REF]
 *
 * Builds the instance when missing (bench/data.ts), copies it so every run starts from the same
 * data, times the reads in process through `buildApp` and `app.inject` (bench/inprocess.ts), then
 * starts `node apps/server/dist/server.js` and drives it as real members (bench/scenarios.ts):
 * rounds of saturated throughput (autocannon) and of latency at half that rate from a constant-rate
 * generator (bench/lib/paced.ts); a bare Fastify server gives the baseline each figure is compared
 * with. `--compare REF` instead runs REF's server beside this one (bench/compare.ts). Ends with the web app's figures (bench/web.ts), every
 * member's Home against the pull query (bench/timeline-check.ts), a check that no write was lost
 * (bench/verify.ts), the reads' growth against a small instance run beside it (bench/growth.ts), a table
 * and one `BENCH_JSON {...}` line (bench/report.ts). The run's stages are in bench/run/. See
 * bench/README.md.
 */
import { compareReport, runCompare } from './compare';
import { measureInProcess, type InProcessResult } from './inprocess';
import { formatCount, resolveInstance, type Instance } from './lib/instance';
import type { Scenario } from './lib/load';
import { log, secondsSince } from './lib/log';
import { Prng } from './lib/prng';
import { pinning } from './lib/pinning';
import { failed, machineNote, printReport } from './report';
import { measureGrowth } from './run/growth-pairs';
import { loadFor, prepareMembers } from './run/members';
import { parseRunOptions, THROUGHPUT_CONNECTIONS } from './run/options';
import { runPerch } from './run/perch';
import { prepareInstance, serverEnv } from './run/prepare';
import { runBaseline } from './run/scenario';
import { selectScenarios } from './run/select';
import { verifyWrites } from './verify';

const options = parseRunOptions();

/** The read scenarios of this run on a small instance beside this one (bench/growth.ts). */
function runGrowth(selected: Scenario[], large: Instance, baselineRps: number) {
  const reads = selected.filter((scenario) => !scenario.write).map((scenario) => scenario.name);
  if (reads.length === 0) return Promise.resolve(null);
  return measureGrowth({ options, large, reads, baselineRps });
}

async function main(): Promise<void> {
  const started = performance.now();
  const { posts, quick, seed, wanted } = options;
  const { note } = pinning();
  const { throughputSeconds, latencySeconds } = options;
  const instance = resolveInstance({
    posts,
    seed,
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
  });
  log(
    `Perch load benchmark: ${instance.kind}, ${formatCount(posts)} posts${quick ? ', quick' : ''}; ${options.rounds} rounds of ${THROUGHPUT_CONNECTIONS} connections × ${throughputSeconds} s for throughput, then ${latencySeconds} s at half that rate for latency`,
  );
  log(note);
  if (options.compare !== null) {
    const compared = await runCompare(options, instance);
    log();
    for (const line of compareReport(compared)) log(line);
    for (const line of machineNote()) log(line);
    log(`Total time ${secondsSince(started)} s.`);
    log(`BENCH_JSON ${JSON.stringify({ compare: compared })}`);
    return;
  }
  const { meta, copy } = await prepareInstance(instance, {
    build: options.build,
    web: wanted('web'),
  });

  // Members, posts and what they already like or bookmark.
  const prng = new Prng(seed, 'load');
  const prepared = await prepareMembers(copy, prng, {
    memberCount: options.memberCount,
    signEveryone: options.checksTimelines,
  });
  const load = loadFor(prepared, prng);
  const selected = selectScenarios(options, load.scenarios);

  let inProcess: InProcessResult | null = null;
  if (wanted('inprocess')) {
    log();
    log('In-process reads (buildApp on the copy, app.inject, one request at a time, no socket):');
    inProcess = await measureInProcess({
      copy,
      secret: prepared.secret,
      members: prepared.everyone.length > 0 ? prepared.everyone : prepared.members,
      seed,
      homeSamples: 2000,
      otherSamples: quick ? 100 : 300,
      budgetMs: quick ? 1000 : 10_000,
      printSql: options.explain,
    });
  }

  const baseline = selected.length > 0 ? await runBaseline(options, load) : null;
  const env = serverEnv(copy, prepared.secret);
  const perch =
    options.checksTimelines || wanted('web')
      ? await runPerch(options, env, copy, prepared, load, selected, baseline?.rps ?? 0)
      : null;

  const verification = await verifyWrites(copy.runner, prepared.before, load.writes, log);
  const growth = options.measuresGrowth
    ? await runGrowth(selected, instance, baseline?.rps ?? 0)
    : null;

  const run = {
    settings: {
      posts,
      seed,
      quick,
      connections: { throughput: THROUGHPUT_CONNECTIONS, latency: THROUGHPUT_CONNECTIONS },
      rounds: options.rounds,
      durations: { throughput: throughputSeconds, latency: latencySeconds },
    },
    variant: instance.kind,
    members: meta?.members ?? prepared.allMembers.length,
    meta,
    started,
    results: perch?.results ?? [],
    baseline,
    server: perch?.server ?? null,
    inProcess,
    web: perch?.web ?? null,
    events: perch?.events ?? null,
    soak: perch?.soak ?? null,
    timelines: perch?.timelines ?? null,
    verification,
    growth,
  };
  printReport(run, log);
  if (failed(run)) process.exitCode = 1;
}

main()
  // Done: a handle left open (a keep-alive socket, a database connection) must not keep the run
  // waiting after its report (it did, now and then).
  .then(() => process.exit())
  .catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
