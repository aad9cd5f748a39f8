/**
 * Live events (GET /api/events) under the benchmark, `--only events`:
 *
 * 1. Delivery latency: `streams` event streams, one per bench member (members are reused when there
 *    are fewer, as tabs of one member), over node:http keep-alive connections with the member's
 *    token in the authorization header; then paced likes from another connection, each by a member
 *    on a post of its own. Every post.liked must reach every stream.
 * 2. Reads and writes with the streams open: feed-latest and like, without streams and then with
 *    them (each like and unlike is then sent to every stream), by bench.ts's own scenario runner.
 *
 * Streams stay on 127.0.0.1, every wait is bounded, and all streams are closed at the end.
 */
import http from 'node:http';
import { formatCount } from './lib/instance';
import { percentile } from './lib/prng';
import { sleep } from './lib/proc';
import { openSseStream, type EventCounter, type SseMessage, type SseStream } from './lib/sse';
import { formatTable } from './lib/table';

/** The scenarios run without and then with the streams open. */
export const COMPARED_SCENARIOS = ['feed-latest', 'like'] as const;
/** How many streams are open in each measured level (the writes' target is set at the largest). */
export const STREAM_LEVELS = [200, 1000] as const;
const withStreams = (streams: number) => ` +${streams} streams`;

export interface StreamMember {
  id: string;
  token: string;
}

/** What bench.ts's scenario runner reports (a subset of its ScenarioResult). */
export interface ScenarioFigures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export interface EventsOptions {
  url: string;
  /** Whose streams: stream i is members[i % members.length]. */
  members: readonly StreamMember[];
  /** The numbers of streams to measure with, one level after another. */
  levels: readonly number[];
  /** A (member, post) pair not liked yet and not used before in this benchmark. */
  nextLike: () => { member: StreamMember; postId: string };
  /** A like (`like:on`) or unlike (`like:off`) sent here, for the check after the run. */
  recordWrite: (key: 'like:on' | 'like:off', status: number) => void;
  /** Likes and unlikes answered 2xx and sent so far, by anyone. */
  likeWrites: () => { answered: number; sent: number };
  /** Warms the server up with these scenarios. */
  warmUp: (names: readonly string[]) => Promise<void>;
  /** Runs the scenario `name`, reported as `name + label`. */
  run: (name: string, label: string) => Promise<ScenarioFigures>;
  likes: number;
  intervalMs: number;
  timeoutMs: number;
  log: (line?: string) => void;
}

export interface Spread {
  p50: number;
  p99: number;
  max: number;
}

export interface DeliveryFigures {
  streams: number;
  /** Distinct members behind the streams. */
  members: number;
  readyMs: number;
  likes: number;
  likesAnswered201: number;
  firstLikeFailure: string | null;
  expected: number;
  received: number;
  duplicates: number;
  unmatched: number;
  /** The likes taken back afterwards: post.unliked expected and received on the streams. */
  unlikedExpected: number;
  unlikedReceived: number;
  /** Arrival on a stream − when the like's answer arrived (negative: the event came first). */
  fromAnswer: Spread;
  /** Arrival on a stream − when the like was sent. */
  fromSend: Spread;
  /** The like request itself. */
  likeLatency: Spread;
}

export interface Comparison {
  name: string;
  without: ScenarioFigures;
  with: ScenarioFigures;
  /** with ÷ without */
  rpsRatio: number;
  p50Ratio: number;
  p99Ratio: number;
}

export interface FanOutFigures {
  /** post.* events the streams received during the runs with streams (post.liked, post.unliked). */
  received: number;
  /** Likes and unlikes answered 2xx (low) and sent (high) meanwhile, times the streams. */
  expectedLow: number;
  expectedHigh: number;
  megabytes: number;
  streamsOpen: number;
  firstEndedEarly: string | null;
}

/** The figures with one number of streams open. */
export interface EventsLevel {
  delivery: DeliveryFigures;
  comparisons: Comparison[];
  fanOut: FanOutFigures;
}

export interface EventsResult {
  /** The compared scenarios without streams, then each level's. */
  without: ScenarioFigures[];
  levels: EventsLevel[];
}

const round = (ms: number, digits = 3) => Math.round(ms * 10 ** digits) / 10 ** digits;

function spread(values: number[]): Spread {
  const sorted = Float64Array.from(values).sort();
  return {
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? Number.NaN),
  };
}

// ---- requests ----------------------------------------------------------------------------------

interface Answer {
  status: number;
  body: string;
  sentAt: number;
  answeredAt: number;
}

/** One request on `agent`; answeredAt is when the answer's head arrived. */
function send(
  agent: http.Agent,
  url: string,
  options: { method: string; path: string; token?: string; timeoutMs: number },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let sentAt = 0;
    const headers: Record<string, string> = { 'content-length': '0', prefer: 'return=minimal' };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const request = http.request(
      new URL(options.path, url),
      { method: options.method, agent, headers, timeout: options.timeoutMs },
      (response) => {
        const answeredAt = performance.now();
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({ status: response.statusCode ?? 0, body, sentAt, answeredAt });
        });
        response.on('error', reject);
      },
    );
    request.on('timeout', () => {
      request.destroy(new Error(`${options.path}: no answer within ${options.timeoutMs} ms`));
    });
    request.on('error', reject);
    sentAt = performance.now();
    request.end();
  });
}

// ---- streams -----------------------------------------------------------------------------------

function memberOf(options: EventsOptions, stream: number): StreamMember {
  const member = options.members[stream % options.members.length];
  if (!member) throw new Error('no members to open streams for');
  return member;
}

type OnMessage = (stream: number, message: SseMessage, arrivedAt: number) => void;

/** Opens `count` streams and waits for every `ready`; closes them all if one fails. */
async function openStreams(
  options: EventsOptions,
  count: number,
  agent: http.Agent,
  onMessage: OnMessage,
): Promise<{ streams: SseStream[]; readyMs: number }> {
  const started = performance.now();
  const streams = Array.from({ length: count }, (_, index) =>
    openSseStream({
      url: options.url,
      path: '/api/events',
      headers: { authorization: `Bearer ${memberOf(options, index).token}` },
      agent,
      readyTimeoutMs: options.timeoutMs,
      onMessage: (message, arrivedAt) => {
        onMessage(index, message, arrivedAt);
      },
    }),
  );
  const outcomes = await Promise.allSettled(streams.map((stream) => stream.ready));
  const failed = outcomes.flatMap((outcome) =>
    outcome.status === 'rejected' ? [String(outcome.reason)] : [],
  );
  if (failed.length > 0) {
    for (const stream of streams) stream.close();
    throw new Error(`${failed.length} of ${streams.length} event streams failed: ${failed[0]}`);
  }
  return { streams, readyMs: round(performance.now() - started, 1) };
}

// ---- 1. delivery latency -----------------------------------------------------------------------

interface SentLike {
  member: StreamMember;
  postId: string;
  answer: Answer | null;
  /** Arrival times of its post.liked, one per stream that got it. */
  arrivals: number[];
}

/** `postId:userId` of a post.liked payload; null when it is not one. */
function likeKeyOf(data: string): string | null {
  try {
    const { postId, userId } = JSON.parse(data) as { postId?: unknown; userId?: unknown };
    return typeof postId === 'string' && typeof userId === 'string' ? `${postId}:${userId}` : null;
  } catch {
    return null;
  }
}

const NO_ARRIVALS = { received: 0, duplicates: 0, unmatched: 0, unliked: 0 };
type Arrivals = typeof NO_ARRIVALS;

/**
 * Matches post.liked events to the likes sent, by post and member, counting repeats per stream;
 * counts the post.unliked of the same likes (taking them back).
 */
function arrivalsOf(likes: Map<string, SentLike>, streams: number) {
  const seen = Array.from({ length: streams }, () => new Set<string>());
  const counts = { ...NO_ARRIVALS };
  const onMessage: OnMessage = (stream, message, arrivedAt) => {
    if (message.event === 'post.unliked') {
      const key = likeKeyOf(message.data);
      if (key !== null && likes.has(key)) counts.unliked++;
    }
    if (message.event !== 'post.liked') return;
    const key = likeKeyOf(message.data);
    const like = key === null ? undefined : likes.get(key);
    const already = seen[stream];
    if (key === null || !like || !already) counts.unmatched++;
    else if (already.has(key)) counts.duplicates++;
    else {
      already.add(key);
      like.arrivals.push(arrivedAt);
      counts.received++;
    }
  };
  return { onMessage, counts };
}

/** Distinct posts, each liked by a member who had not liked it. */
function planLikes(options: EventsOptions, likes: Map<string, SentLike>): SentLike[] {
  const posts = new Set<string>();
  const planned: SentLike[] = [];
  for (let tries = 0; planned.length < options.likes && tries < options.likes * 100; tries++) {
    const { member, postId } = options.nextLike();
    if (posts.has(postId)) continue;
    posts.add(postId);
    const like: SentLike = { member, postId, answer: null, arrivals: [] };
    likes.set(`${postId}:${member.id}`, like);
    planned.push(like);
  }
  return planned;
}

/** Sends the likes one after another, one every intervalMs (or at once when one took longer). */
async function sendLikes(options: EventsOptions, agent: http.Agent, planned: SentLike[]) {
  for (const like of planned) {
    const started = performance.now();
    like.answer = await send(agent, options.url, {
      method: 'POST',
      path: `/api/posts/like/${like.postId}`,
      token: like.member.token,
      timeoutMs: options.timeoutMs,
    });
    options.recordWrite('like:on', like.answer.status);
    await sleep(Math.max(0, started + options.intervalMs - performance.now()));
  }
}

/** Waits, within the timeout, until `count()` reaches `expected`. */
async function waitFor(count: () => number, expected: number, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  while (count() < expected && performance.now() < deadline) await sleep(10);
}

function deliveryFigures(
  planned: SentLike[],
  counts: Arrivals,
  streams: number,
  readyMs: number,
): Omit<DeliveryFigures, 'members' | 'unlikedExpected' | 'unlikedReceived'> {
  const answered = planned.filter((like) => like.answer?.status === 201);
  const failure = planned.find((like) => like.answer?.status !== 201)?.answer;
  const fromAnswer: number[] = [];
  const fromSend: number[] = [];
  for (const { answer, arrivals } of answered) {
    for (const at of arrivals) {
      fromAnswer.push(at - (answer?.answeredAt ?? 0));
      fromSend.push(at - (answer?.sentAt ?? 0));
    }
  }
  return {
    streams,
    readyMs,
    likes: planned.length,
    likesAnswered201: answered.length,
    firstLikeFailure: failure ? `${failure.status} ${failure.body.slice(0, 200)}` : null,
    expected: answered.length * streams,
    received: counts.received,
    duplicates: counts.duplicates,
    unmatched: counts.unmatched,
    fromAnswer: spread(fromAnswer),
    fromSend: spread(fromSend),
    likeLatency: spread(
      answered.map(({ answer }) => (answer?.answeredAt ?? 0) - (answer?.sentAt ?? 0)),
    ),
  };
}

/** Takes the likes back so the instance is as it was; answers how many were answered 201. */
async function unlike(options: EventsOptions, agent: http.Agent, planned: SentLike[]) {
  let answered = 0;
  for (const like of planned) {
    if (like.answer?.status !== 201) continue;
    const answer = await send(agent, options.url, {
      method: 'POST',
      path: `/api/posts/dislike/${like.postId}`,
      token: like.member.token,
      timeoutMs: options.timeoutMs,
    });
    options.recordWrite('like:off', answer.status);
    if (answer.status === 201) answered++;
  }
  return answered;
}

async function measureDelivery(
  options: EventsOptions,
  agent: http.Agent,
  likes: Map<string, SentLike>,
  counts: Arrivals,
  opened: { streams: SseStream[]; readyMs: number },
): Promise<DeliveryFigures> {
  // Open the likes' own connection first, so the first like does not pay for it.
  await send(agent, options.url, {
    method: 'GET',
    path: '/api/health',
    timeoutMs: options.timeoutMs,
  });
  const planned = planLikes(options, likes);
  await sendLikes(options, agent, planned);
  const expected =
    planned.filter((like) => like.answer?.status === 201).length * opened.streams.length;
  await waitFor(() => counts.received, expected, options.timeoutMs);
  const figures = deliveryFigures(planned, counts, opened.streams.length, opened.readyMs);
  // Their post.unliked must be in before the streams only count what the scenarios cause.
  const unlikedExpected = (await unlike(options, agent, planned)) * opened.streams.length;
  await waitFor(() => counts.unliked, unlikedExpected, options.timeoutMs);
  const members = new Set(opened.streams.map((_, i) => memberOf(options, i).id)).size;
  return { ...figures, members, unlikedExpected, unlikedReceived: counts.unliked };
}

// ---- 2. reads and writes with the streams open --------------------------------------------------

/** Only the figures (the runner's result holds more). */
const figuresOf = ({ name, rps, p50, p99, errors, non2xx }: ScenarioFigures): ScenarioFigures => ({
  name,
  rps,
  p50,
  p99,
  errors,
  non2xx,
});

function compare(without: ScenarioFigures, withStreams: ScenarioFigures): Comparison {
  const ratio = (a: number, b: number) => (b > 0 ? round(a / b) : Number.NaN);
  return {
    name: without.name,
    without: figuresOf(without),
    with: figuresOf(withStreams),
    rpsRatio: ratio(withStreams.rps, without.rps),
    p50Ratio: ratio(withStreams.p50, without.p50),
    p99Ratio: ratio(withStreams.p99, without.p99),
  };
}

async function runCompared(options: EventsOptions, label: string): Promise<ScenarioFigures[]> {
  const results: ScenarioFigures[] = [];
  for (const name of COMPARED_SCENARIOS) results.push(await options.run(name, label));
  return results;
}

/** Runs the compared scenarios with the streams only counting events, then checks the fan-out. */
async function runWithStreams(options: EventsOptions, streams: SseStream[]) {
  const label = withStreams(streams.length);
  // post.liked and post.unliked (the likes' notifications.changed reach their authors too).
  const counters: EventCounter[] = streams.map((stream) => stream.countOnly('post.'));
  const received = () => counters.reduce((sum, counter) => sum + counter.events, 0);
  const before = { received: received(), ...options.likeWrites() };
  const results = await runCompared(options, label);
  const writes = options.likeWrites();
  const expectedLow = (writes.answered - before.answered) * streams.length;
  await waitFor(received, before.received + expectedLow, options.timeoutMs);
  const endedEarly = streams
    .map((stream) => stream.endedEarly())
    .filter((reason) => reason !== null);
  const fanOut: FanOutFigures = {
    received: received() - before.received,
    expectedLow,
    expectedHigh: (writes.sent - before.sent) * streams.length,
    megabytes: round(counters.reduce((sum, counter) => sum + counter.bytes, 0) / 1e6, 1),
    streamsOpen: streams.length - endedEarly.length,
    firstEndedEarly: endedEarly[0] ?? null,
  };
  return { results, fanOut };
}

// ---- the scenario set --------------------------------------------------------------------------

/** Opens `count` streams, measures delivery and the scenarios with them, then closes them. */
async function measureLevel(
  options: EventsOptions,
  count: number,
  without: readonly ScenarioFigures[],
): Promise<EventsLevel> {
  const { log } = options;
  const streamAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const likeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const likes = new Map<string, SentLike>();
  const { onMessage, counts } = arrivalsOf(likes, count);
  let streams: SseStream[] = [];
  try {
    const opened = await openStreams(options, count, streamAgent, onMessage);
    streams = opened.streams;
    log(
      `  ${streams.length} streams ready in ${opened.readyMs} ms; ${options.likes} likes, one every ${options.intervalMs} ms`,
    );
    const delivery = await measureDelivery(options, likeAgent, likes, counts, opened);
    log(
      `  delivered ${formatCount(delivery.received)} of ${formatCount(delivery.expected)} post.liked events; with ${streams.length} streams open:`,
    );
    const loaded = await runWithStreams(options, streams);
    const comparisons = without.map((result, i) => compare(result, loaded.results[i] ?? result));
    return { delivery, comparisons, fanOut: loaded.fanOut };
  } finally {
    for (const stream of streams) stream.close();
    streamAgent.destroy();
    likeAgent.destroy();
  }
}

export async function measureEvents(options: EventsOptions): Promise<EventsResult> {
  options.log(`  without streams (warm-up first):`);
  await options.warmUp(COMPARED_SCENARIOS);
  const without = await runCompared(options, '');
  const levels: EventsLevel[] = [];
  for (const count of options.levels) {
    levels.push(await measureLevel(options, count, without));
    // Closed streams leave the server before the next level opens its own.
    await sleep(500);
  }
  return { without, levels };
}

// ---- report ------------------------------------------------------------------------------------

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : 'n/a');
const times = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : 'n/a');

function deliveryLines({ delivery: d }: EventsLevel): string[] {
  return [
    `Live events: ${d.streams} streams of ${d.members} members (GET /api/events) ready in ${d.readyMs} ms; ${d.likes} likes one by one, ${d.likesAnswered201} answered 201${d.firstLikeFailure ? ` (first failure: ${d.firstLikeFailure})` : ''}`,
    ...formatTable([
      ['post.liked reaching each stream', 'p50 ms', 'p99 ms', 'max ms'],
      [
        'after the like was answered',
        ms(d.fromAnswer.p50),
        ms(d.fromAnswer.p99),
        ms(d.fromAnswer.max),
      ],
      ['after the like was sent', ms(d.fromSend.p50), ms(d.fromSend.p99), ms(d.fromSend.max)],
      [
        '(the like request itself)',
        ms(d.likeLatency.p50),
        ms(d.likeLatency.p99),
        ms(d.likeLatency.max),
      ],
    ]),
    `Deliveries of post.liked: expected ${formatCount(d.expected)}, received ${formatCount(d.received)}${d.received === d.expected ? '' : ' (MISSING SOME)'}; repeated ${d.duplicates}, unmatched ${d.unmatched}; of post.unliked (taking them back): ${formatCount(d.unlikedReceived)} of ${formatCount(d.unlikedExpected)}`,
  ];
}

function comparisonLines({ comparisons, fanOut: f, delivery }: EventsLevel): string[] {
  const rows = comparisons.map((c) => [
    c.name,
    c.without.rps.toFixed(0),
    c.with.rps.toFixed(0),
    times(c.rpsRatio),
    String(c.without.p50),
    String(c.with.p50),
    String(c.without.p99),
    String(c.with.p99),
    `${c.without.errors + c.without.non2xx}/${c.with.errors + c.with.non2xx}`,
  ]);
  const expected =
    f.expectedLow === f.expectedHigh
      ? formatCount(f.expectedLow)
      : `${formatCount(f.expectedLow)}…${formatCount(f.expectedHigh)}`;
  return [
    `Same run, without and with the ${delivery.streams} streams open (+s):`,
    ...formatTable([
      ['scenario', 'req/s', '+s req/s', '+s ÷', 'p50 ms', '+s p50', 'p99 ms', '+s p99', 'failed'],
      ...rows,
    ]),
    `Fan-out while loaded: ${formatCount(f.received)} events to the streams (expected ${expected}), ${f.megabytes} MB; ${f.streamsOpen} of ${delivery.streams} streams still open${f.firstEndedEarly ? ` (first to end: ${f.firstEndedEarly})` : ''}`,
  ];
}

/** Writes with the most streams open, as a share of the same writes without (target ≥ 0.8). */
function targetLine(result: EventsResult): string[] {
  const largest = result.levels.at(-1);
  const like = largest?.comparisons.find((c) => c.name === 'like');
  if (!largest || !like) return [];
  return [
    `Target: likes with ${largest.delivery.streams} streams ≥ 0.8× without: ${times(like.rpsRatio)}×; delivery p99 ≤ 100 ms after the answer: ${ms(largest.delivery.fromAnswer.p99)} ms`,
  ];
}

export function eventsReport(result: EventsResult): string[] {
  return [
    ...result.levels.flatMap((level) => [...deliveryLines(level), ...comparisonLines(level), '']),
    ...targetLine(result),
  ];
}
