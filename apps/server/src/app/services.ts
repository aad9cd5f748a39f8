import { FOLLOWING_MAX } from '@perch/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { SessionViewer } from '../lib/viewer';
import type { AppConfig } from './config';
import { isPostgres } from '../platform/db/dialect';
import type { Database } from '../platform/db/schema';
import { createEventStreams } from '../platform/events/event-stream';
import { deleteEventsBefore } from '../platform/events/outbox.repository';
import { createRelay } from '../platform/events/relay';
import { createStreamHub } from '../platform/events/stream-hub';
import { createTransact, type Transact } from '../platform/events/transactions';
import type { Infrastructure } from '../platform/infra';
import { createInvalidation } from '../read-model';
import { createCommentPresenter } from '../read-model/comment/presenter';
import { createMemberPresenter } from '../read-model/member/presenter';
import { createPostPresenter } from '../read-model/post/presenter';
import { createScheduler } from '../platform/infra/jobs';
import { createAccountService } from '../modules/account/account.service';
import { createExportService } from '../modules/account/export.service';
import { createAuthService } from '../modules/auth/auth.service';
import { createBookmarksService } from '../modules/bookmarks/bookmarks.service';
import { createCommentsService } from '../modules/comments/comments.service';
import { createDiscoveryService } from '../modules/discovery/discovery.service';
import { createEntitiesService } from '../modules/discovery/entities.service';
import { createEmbedsService } from '../modules/embeds/embeds.service';
import { createFeedsService } from '../modules/feeds/feeds.service';
import { createInteractionsService } from '../modules/interactions';
import { createMediaService } from '../modules/media/media.service';
import type { MediaStore } from '../modules/media/media.store';
import { createNotificationsService } from '../modules/notifications/notifications.service';
import { createPagesService } from '../modules/pages/pages.service';
import { createPostsService } from '../modules/posts/posts.service';
import { attachPoll } from '../modules/polls/attach';
import { createPollsService } from '../modules/polls/polls.service';
import { createPreviewCardsService } from '../modules/preview-cards/preview-cards.service';
import { createGuardedFetch } from '../platform/infra/guarded-fetch';
import { createHiddenMembers } from '../modules/safety/hidden-members';
import { createIdempotencyService } from '../modules/idempotency/idempotency.service';
import { createInstanceService } from '../modules/instance/instance.service';
import { createMarkersService } from '../modules/markers/markers.service';
import { createSafetyService } from '../modules/safety/safety.service';
import { createSessionsService } from '../modules/sessions/sessions.service';
import { createOAuthService } from '../mastodon/oauth/oauth.service';
import { createTimelinesService } from '../modules/timelines/timelines.service';
import { createUsersService } from '../modules/users/users.service';

const MINUTE = 60 * 1000;
/** A preview card's image may be larger than its page: it is re-encoded and capped after. */
const PREVIEW_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const HOUR = 60 * MINUTE;
/** Events are kept this long for reconnecting streams to replay; older ones are pruned. */
export const OUTBOX_RETENTION_MS = 48 * HOUR;

export interface ServicesDeps {
  db: Kysely<Database>;
  /** For hot reads: a read-only connection on SQLite, so they never wait behind a write. */
  reads: Kysely<Database>;
  config: AppConfig;
  log: FastifyBaseLogger;
  infra: Infrastructure;
  mediaStore: MediaStore;
  signToken: (viewer: SessionViewer, ttlSeconds?: number) => string;
  signAppToken: (token: { appId: string; tokenId: string }, ttlSeconds: number) => string;
}

type Jobs = Record<string, () => Promise<unknown>>;

/** The read model's presenters and the caches behind them, sized from the configuration. */
function createReadModel({ db, reads, config }: Pick<ServicesDeps, 'db' | 'reads' | 'config'>) {
  const hidden = createHiddenMembers({ reads, max: 50_000 });
  const members = createMemberPresenter({
    reads,
    maxSummaries: 50_000,
    maxViews: 3_000,
    maxFollowees: 50_000,
    maxFolloweesPerMember: FOLLOWING_MAX,
    // Member search's pairs and triples are SQLite's; PostgreSQL reads its trigram index.
    maxSearchPages: isPostgres(db) ? 0 : 2_000,
  });
  const authors = { of: members.summaries };
  const postViews = createPostPresenter({
    reads,
    maxViews: config.cardCacheSize,
    maxCompactViews: config.packedCardCacheSize,
    maxViewerStateIds: 250_000,
    maxViewerStatesPerMember: 5_000,
    authors,
    hiddenFor: hidden.hiddenFor,
  });
  const commentViews = createCommentPresenter({
    reads,
    maxFirstComments: config.cardCacheSize,
    maxVotes: 100_000,
    maxVotesPerMember: 5_000,
    hiddenFor: hidden.hiddenFor,
  });
  return { hidden, members, authors, postViews, commentViews };
}

type ReadModel = ReturnType<typeof createReadModel>;

/** The feature modules' services, each built once with what it depends on. */
function createModules(deps: ServicesDeps, views: ReadModel, transact: Transact) {
  const { db, reads, config, log, mediaStore, signToken, signAppToken } = deps;
  const { hidden, members, authors } = views;
  const media = createMediaService({ db, store: mediaStore, log });
  const timelines = createTimelinesService({
    db,
    reads,
    log,
    length: config.homeTimelineLength,
    pullFollowers: config.homePullFollowers,
  });
  const idempotency = createIdempotencyService({ db });
  const users = createUsersService({ db, reads, transact, media, timelines, hidden, members });
  const entities = createEntitiesService({ users });
  const posts = createPostsService({
    db,
    reads,
    transact,
    media,
    users,
    timelines,
    authors,
    entities,
    hidden,
    idempotency,
    presenter: views.postViews,
    polls: { attach: attachPoll },
  });
  const polls = createPollsService({ db, reads, transact, posts });
  const comments = createCommentsService({
    db,
    transact,
    posts,
    entities,
    hidden,
    idempotency,
    authors,
    presenter: views.commentViews,
  });
  const discovery = createDiscoveryService({
    db,
    reads,
    posts,
    hidden,
    trendingCacheMs: config.trendingCacheSeconds * 1000,
  });
  const interactions = createInteractionsService({
    transact,
    posts,
    members: { lock: users.lockMember },
  });
  const bookmarks = createBookmarksService({ db, posts, interactions });
  const embeds = createEmbedsService({ comments, users, bookmarks });
  const sessions = createSessionsService({ db, transact, tokenTtlSeconds: config.tokenTtlSeconds });
  const { passwordHashCost } = config;
  const auth = createAuthService({ users, sessions, passwordHashCost, signToken });
  const notifications = createNotificationsService({ db, transact, hidden, polls });
  const safety = createSafetyService({ reads, transact, users, notifications });
  const account = createAccountService({
    transact,
    users,
    sessions,
    entities,
    notifications,
    polls,
    passwordHashCost,
  });
  const exports = createExportService({ reads, users, media, log });
  const pages = createPagesService({ users, posts, comments, media });
  const feeds = createFeedsService({ media, users, posts, discovery });
  const previewCards = createPreviewCards(deps, { transact, posts, media });
  const oauth = createOAuthService({ db, sessions, signToken, signAppToken });
  return {
    auth,
    oauth,
    account,
    exports,
    sessions,
    users,
    posts,
    polls,
    interactions,
    timelines,
    comments,
    bookmarks,
    embeds,
    discovery,
    feeds,
    media,
    notifications,
    pages,
    safety,
    idempotency,
    previewCards,
    instance: createInstanceService({ reads }),
    markers: createMarkersService({ db }),
  };
}

/** Link preview cards, fetched through the guarded fetch; null when LINK_PREVIEWS is off. */
function createPreviewCards(
  { db, config, log }: ServicesDeps,
  modules: Pick<Parameters<typeof createPreviewCardsService>[0], 'transact' | 'posts' | 'media'>,
) {
  if (!config.linkPreviews) return null;
  const guard = {
    // Site owners reach this instance through the address it names (the request's own when unset).
    publicOrigin: config.publicUrl ?? `http://${config.host}:${config.port}`,
    allowPrivate: config.linkPreviewAllowPrivate,
  };
  return createPreviewCardsService({
    db,
    log,
    ...modules,
    fetchPage: createGuardedFetch(guard),
    fetchImage: createGuardedFetch({ ...guard, maxBytes: PREVIEW_IMAGE_MAX_BYTES }),
  });
}

type Modules = ReturnType<typeof createModules>;

/**
 * After commit: the relay hands events to the durable consumers, the live streams, the timelines
 * and the read model's invalidation table.
 */
function createEventFlow(deps: ServicesDeps, views: ReadModel, modules: Modules) {
  const { db, log, infra } = deps;
  const { notifications, media, timelines, users, sessions, previewCards } = modules;
  const relay = createRelay({
    db,
    signal: infra.signal,
    log,
    consumers: [
      notifications.consumer,
      media.consumer,
      timelines.consumer,
      ...(previewCards ? [previewCards.consumer] : []),
    ],
  });
  const hub = createStreamHub({
    followersAmong: users.followersAmong,
    followeesAmong: users.followeesAmong,
    relationsOf: views.hidden.relationsOf,
    log,
  });
  // The views other events change, through the invalidation table: this process's writes at
  // commit (transact's afterCommit), every process's when the relay hands them on.
  const invalidateViews = createInvalidation(
    {
      posts: views.postViews.invalidate,
      viewerStates: views.postViews.invalidateViewerStates,
      members: views.members.invalidate,
      comments: views.commentViews.invalidate,
      relations: views.hidden,
    },
    (error) => {
      log.error({ err: error }, 'a view could not be dropped');
    },
  );
  relay.listen(hub.deliver);
  relay.listen(invalidateViews);
  relay.listen(timelines.listener);
  relay.listen((events) => {
    for (const event of events) {
      if (event.type === 'sessions.revoked') sessions.forget(event.payload.sessionIds);
    }
  });
  const streams = createEventStreams({
    db,
    hub,
    relay,
    unreadCount: async (viewer) => (await notifications.unreadCount(viewer)).unreadCount,
    replayLimit: 1000,
  });
  return { relay, hub, streams, invalidateViews };
}

/** The scheduled work: each job runs in one process at a time across all of them. */
function createJobs({ db, config }: ServicesDeps, modules: Modules) {
  const { sessions, idempotency, media, timelines, discovery, polls } = modules;
  return {
    pruneSessions: () => sessions.pruneExpired(),
    pruneIdempotencyKeys: () => idempotency.prune(),
    pruneOutbox: () =>
      db.transaction().execute((trx) => deleteEventsBefore(trx, Date.now() - OUTBOX_RETENTION_MS)),
    sweepMedia: () => media.sweep(),
    closePolls: () => polls.closeEnded(),
    trimTimelines: () => timelines.trimAll(),
    tidySearchIndex: () => discovery.tidySearchIndex(),
    dropIdleTimelines: () =>
      timelines.dropIdle(Date.now() - config.homeTimelineIdleDays * 24 * HOUR),
  } satisfies Jobs;
}

function scheduleJobs(
  scheduler: ReturnType<typeof createScheduler>,
  jobs: ReturnType<typeof createJobs>,
  config: AppConfig,
): void {
  scheduler.every('outbox-prune', HOUR, jobs.pruneOutbox, { firstDelayMs: 60_000 });
  scheduler.every('sessions-prune', HOUR, jobs.pruneSessions, { firstDelayMs: 90_000 });
  scheduler.every('idempotency-prune', HOUR, jobs.pruneIdempotencyKeys, {
    firstDelayMs: 100_000,
  });
  scheduler.every('search-tidy', 10 * MINUTE, jobs.tidySearchIndex, {
    firstDelayMs: 3 * MINUTE,
  });
  // Often: a poll's end is told within this time.
  scheduler.every('polls-close', 15_000, jobs.closePolls, { firstDelayMs: 5_000 });
  scheduler.every('timelines-trim', 10 * MINUTE, jobs.trimTimelines, { firstDelayMs: MINUTE });
  scheduler.every('timelines-drop-idle', HOUR, jobs.dropIdleTimelines, {
    firstDelayMs: 2 * MINUTE,
  });
  if (config.mediaSweepIntervalMinutes > 0) {
    scheduler.every('media-sweep', config.mediaSweepIntervalMinutes * 60_000, jobs.sweepMedia, {
      firstDelayMs: 60_000,
    });
  }
}

/**
 * The composition root: every service is built here once, with what it depends on, and reached
 * as app.services. Services never build one another.
 */
export function createServices(deps: ServicesDeps) {
  const { db, config, log, infra } = deps;
  // The relay and the invalidation table are built after the modules that use transact; a write
  // commits only once the app is serving, when both exist.
  const late: { flow?: ReturnType<typeof createEventFlow> } = {};
  const transact = createTransact(
    db,
    (lastId) => {
      late.flow?.relay.committed(lastId);
    },
    (events) => {
      late.flow?.invalidateViews(events);
    },
  );
  const views = createReadModel(deps);
  const modules = createModules(deps, views, transact);
  const flow = createEventFlow(deps, views, modules);
  late.flow = flow;
  const { relay, hub, streams } = flow;
  const { timelines, previewCards } = modules;
  const scheduler = createScheduler({ lock: infra.jobLock, log });
  const jobs = createJobs(deps, modules);

  return {
    ...modules,
    relay,
    hub,
    streams,
    scheduler,
    jobs,

    /** Starts what runs beside requests: the relay and the scheduled jobs. */
    async start(): Promise<void> {
      await relay.start();
      previewCards?.start();
      scheduleJobs(scheduler, jobs, config);
    },

    /** Ends streams and background work; the database closes after. */
    async stop(): Promise<void> {
      hub.closeAll('shutting down');
      await scheduler.stop();
      await previewCards?.stop();
      await timelines.idle();
      await relay.stop();
    },
  };
}

export type Services = ReturnType<typeof createServices>;
