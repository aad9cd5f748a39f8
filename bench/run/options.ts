/** `npm run bench`'s options and what follows from them (see bench/README.md's options table). */
import { parseArgs } from 'node:util';
import { STREAM_LEVELS } from '../events';
import { SMALL_POSTS } from '../growth';
import { DEFAULT_PG_URL, DEFAULT_SEED, parseCount } from '../lib/instance';

export const THROUGHPUT_CONNECTIONS = 50;
export const LATENCY_CONNECTIONS = 10;

export interface RunOptions {
  posts: number;
  seed: string;
  dataDir: string | undefined;
  quick: boolean;
  /** PostgreSQL's address when the run is on PostgreSQL. */
  databaseUrl: string | null;
  /** How many members the load acts as. */
  memberCount: number;
  throughputSeconds: number;
  latencySeconds: number;
  /** Rounds of each scenario (throughput, then latency at half its rate); figures are their median. */
  rounds: number;
  /** A scenario's latency connections for this long before it is measured (none on quick runs). */
  warmupSeconds: number;
  timeoutSeconds: number;
  /** The soak's length, or 0 for the scenarios one by one. */
  soakSeconds: number;
  /** The names given to `--only`, or null for everything. */
  only: ReadonlySet<string> | null;
  wanted: (name: string) => boolean;
  /**
   * Every member's Home is checked whenever anything but the in-process timings and the web app
   * runs (any scenario, the live events, or `timelines` itself).
   */
  checksTimelines: boolean;
  /**
   * The reads on 10,000 posts beside the run's instance, for their growth: in full runs of a larger
   * instance, or when asked (`--growth`); never with `--no-growth`.
   */
  measuresGrowth: boolean;
  explain: boolean;
  build: boolean;
  /** A git ref whose server runs beside this one, scenario by scenario (bench/compare.ts). */
  compare: string | null;
  /** Where the server writes a CPU profile when it stops. */
  profileDir: string | undefined;
  /** The live events' levels: how many streams are open in each (`--streams 200,1000`). */
  streamLevels: number[];
}

export function parseRunOptions(argv: string[] = process.argv.slice(2)): RunOptions {
  const { values: args } = parseArgs({
    args: argv,
    options: {
      posts: { type: 'string' },
      seed: { type: 'string', default: DEFAULT_SEED },
      'data-dir': { type: 'string' },
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      pg: { type: 'boolean', default: false },
      duration: { type: 'string' },
      'latency-duration': { type: 'string' },
      members: { type: 'string', default: '200' },
      explain: { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      soak: { type: 'string' },
      profile: { type: 'string' },
      growth: { type: 'boolean', default: false },
      'no-growth': { type: 'boolean', default: false },
      rounds: { type: 'string', default: '3' },
      compare: { type: 'string' },
      streams: { type: 'string' },
    },
  });

  const quick = args.quick;
  const soakSeconds = args.soak === undefined ? 0 : Number(args.soak);
  if (!Number.isInteger(soakSeconds) || soakSeconds < 0) {
    throw new Error(`--soak takes a number of seconds, not ${String(args.soak)}`);
  }
  const usePostgres = args.pg || Boolean(process.env.DATABASE_URL?.trim());
  const envUrl = process.env.DATABASE_URL?.trim() ?? '';
  const posts = args.posts
    ? parseCount(args.posts)
    : quick
      ? 10_000
      : usePostgres
        ? 100_000
        : 1_000_000;
  const only = args.only ? new Set(args.only.split(',').map((name) => name.trim())) : null;
  return {
    posts,
    seed: args.seed,
    dataDir: args['data-dir'],
    quick,
    databaseUrl: usePostgres ? (envUrl === '' ? DEFAULT_PG_URL : envUrl) : null,
    memberCount: parseCount(args.members),
    throughputSeconds: Number(args.duration ?? (quick ? 3 : 10)),
    latencySeconds: Number(args['latency-duration'] ?? (quick ? 2 : 5)),
    rounds: Math.max(1, parseCount(args.rounds)),
    compare: args.compare ?? null,
    warmupSeconds: quick ? 0 : 1,
    timeoutSeconds: quick ? 10 : 30,
    soakSeconds,
    only,
    wanted: (name) => only === null || only.has(name),
    checksTimelines:
      only === null || [...only].some((name) => name !== 'inprocess' && name !== 'web'),
    measuresGrowth:
      !args['no-growth'] &&
      posts > SMALL_POSTS &&
      soakSeconds === 0 &&
      (args.growth || (only === null && !quick)),
    explain: args.explain,
    build: !args['no-build'],
    profileDir: args.profile,
    streamLevels: args.streams
      ? args.streams.split(',').map((count) => parseCount(count.trim()))
      : [...STREAM_LEVELS],
  };
}
