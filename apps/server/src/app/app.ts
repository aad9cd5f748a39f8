import path from 'node:path';
import rateLimit from '@fastify/rate-limit';
import { errorResponseSchemas } from '@perch/contract';
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { AppConfig } from './config';
import {
  closeDatabase,
  createDatabase,
  targetFromConfig,
  type DatabaseHandle,
} from '../platform/db/database';
import { migrateToLatest } from '../platform/db/migrate';
import type { Database } from '../platform/db/schema';
import { seedDemoDataIfEmpty } from '../platform/db/seed';
import { whileStarting } from '../platform/db/startup-lock';
import { authPlugin } from './plugins/auth.plugin';
import { createInfrastructure } from '../platform/infra';
import { accountRoutes } from '../modules/account/account.routes';
import { authRoutes } from '../modules/auth/auth.routes';
import { bookmarksRoutes } from '../modules/bookmarks/bookmarks.routes';
import { commentsRoutes } from '../modules/comments/comments.routes';
import { eventsRoutes } from '../modules/events/events.routes';
import { healthRoutes } from '../modules/health/health.routes';
import { mediaPlugin } from '../modules/media/media.plugin';
import { mediaRoutes } from '../modules/media/media.routes';
import { createDiskMediaStore } from '../modules/media/media.store';
import { discoveryRoutes } from '../modules/discovery/discovery.routes';
import { feedsRoutes } from '../modules/feeds/feeds.routes';
import { notificationsRoutes } from '../modules/notifications/notifications.routes';
import { pagesRoutes } from '../modules/pages/pages.routes';
import { postsRoutes } from '../modules/posts/posts.routes';
import { pollsRoutes } from '../modules/polls/polls.routes';
import { sessionsRoutes } from '../modules/sessions/sessions.routes';
import { authorizationRoutes } from '../mastodon/oauth/authorization.routes';
import { safetyRoutes } from '../modules/safety/safety.routes';
import { usersRoutes } from '../modules/users/users.routes';
import { mastodonApi } from '../mastodon/mastodon.plugin';
import { bodyLimitGuard } from './plugins/body-limit';
import { compression } from './plugins/compression';
import { answerClientError, answerFrameworkError, errorHandler } from './plugins/error-handler';
import { inputGuard } from './plugins/input-guard';
import { readRetry } from './plugins/read-retry';
import { securityHeaders } from './plugins/security-headers';
import { webPlugin } from './plugins/web';
import { describeRoute, openApi, type Admission } from './plugins/openapi';
import { contractSerializerCompiler } from './plugins/response-serializer';
import { createServices, type Services } from './services';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    /** For reads; see DatabaseHandle.reads. */
    reads: Kysely<Database>;
    config: AppConfig;
    services: Services;
  }
}

export interface BuildOptions {
  /** An open database to use instead of the configured one (tests); it is still closed with the app. */
  database?: DatabaseHandle;
  logger?: boolean;
  /**
   * Checks every answer against its contract schema (tests): one that does not match answers 500
   * and names its route.
   */
  validateResponses?: boolean;
}

export function mediaDirOf(config: Pick<AppConfig, 'dataDir'>): string {
  return path.resolve(config.dataDir, 'media');
}

/**
 * Brings the database to the latest schema and, when configured, fills an empty one with demo data;
 * one instance at a time, as several replicas may start together.
 */
export async function prepareDatabase(database: DatabaseHandle, config: AppConfig): Promise<void> {
  await whileStarting(database, async () => {
    await migrateToLatest(database.db as Kysely<unknown>);
    if (config.seedDemoData) {
      await seedDemoDataIfEmpty(database.db, {
        passwordHashCost: config.passwordHashCost,
        mediaDir: mediaDirOf(config),
      });
    }
  });
}

/**
 * Fastify's own defaults leave a request that never finishes arriving open for ever (its
 * requestTimeout of 0 overrides Node's); Node checks for expired requests every 30 s unless told
 * otherwise, which would add up to 30 s to each. Answered 408 by answerClientError.
 */
function timeoutOptions(config: AppConfig) {
  const shortest = Math.min(config.headersTimeoutMs, config.requestTimeoutMs);
  return {
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, Math.ceil(shortest / 4)),
    },
  };
}

/** Every call under /api: the modules' routes, each tagged in the OpenAPI document. */
function apiRoutes(config: AppConfig, validateResponses: boolean): FastifyPluginAsync {
  return async (api) => {
    const admissions = new Map<unknown, Admission>([
      [api.authenticate, 'member'],
      [api.authenticateSession, 'session'],
      [api.identify, 'optional'],
    ]);
    // Every call may answer an error, in the one shape the contract gives it.
    api.addHook('onRoute', (route) => {
      const schema = (route.schema ??= {});
      schema.response = { ...errorResponseSchemas, ...(schema.response as object | undefined) };
    });
    if (validateResponses) {
      api.addHook('onSend', async (request, reply, payload) => {
        requireResponseSchema(request, reply.statusCode, payload);
        return payload;
      });
    }
    /** A module's routes, tagged with its name in the OpenAPI document. */
    const module = async <Options extends object>(
      tag: string,
      routes: FastifyPluginAsync<Options>,
      routeOptions: Options & { prefix?: string },
    ) =>
      api.register(async (scope) => {
        scope.addHook('onRoute', (route) => {
          describeRoute(route, tag, admitOnArrival(route, admissions));
        });
        await scope.register(routes, routeOptions);
      });
    await module('health', healthRoutes, {});
    await module('auth', authRoutes, { prefix: '/auth' });
    await module('account', accountRoutes, {});
    await module('sessions', sessionsRoutes, { prefix: '/auth/sessions' });
    await module('oauth', authorizationRoutes, { prefix: '/oauth' });
    await module('safety', safetyRoutes, { prefix: '/users' });
    await module('users', usersRoutes, { prefix: '/users' });
    await module('bookmarks', bookmarksRoutes, { prefix: '/users' });
    await module('posts', postsRoutes, { prefix: '/posts' });
    await module('polls', pollsRoutes, { prefix: '/polls' });
    await module('comments', commentsRoutes, { prefix: '/comments' });
    await module('notifications', notificationsRoutes, { prefix: '/notifications' });
    await module('discovery', discoveryRoutes, {});
    await module('events', eventsRoutes, { prefix: '/events' });
    await module('media', mediaRoutes, {
      prefix: '/media',
      uploadsPerMinute: config.uploadRateLimitPerMinute,
    });
  };
}

/** Builds the whole app on a migrated database, ready to listen or to be injected into. */
export async function buildApp(
  config: AppConfig,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const database = options.database ?? createDatabase(targetFromConfig(config));
  try {
    await prepareDatabase(database, config);
  } catch (error) {
    await closeDatabase(database);
    throw error;
  }

  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    ...timeoutOptions(config),
    // Ids longer than any Perch issues are refused by the routes' own params schemas (400); past
    // this the router answers 414 before any route runs.
    routerOptions: { maxParamLength: 500 },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(
    contractSerializerCompiler({ validate: options.validateResponses === true }),
  );
  app.decorate('db', database.db);
  app.decorate('reads', database.reads);
  app.decorate('config', config);
  const infra = await createInfrastructure(config, app.log, database.db);
  app.addHook('onClose', async () => {
    await infra.close();
    await closeDatabase(database);
  });

  await app.register(errorHandler);
  await app.register(bodyLimitGuard);
  await app.register(readRetry);
  await app.register(inputGuard);
  await app.register(securityHeaders);
  // Before every route: it applies to the routes registered after it.
  await app.register(compression, { enabled: config.compression });
  await app.register(rateLimit, { global: false, ...infra.rateLimit });
  await app.register(authPlugin, { config });
  await app.register(openApi);
  const mediaStore = createDiskMediaStore(mediaDirOf(config));
  await app.register(mediaPlugin, { store: mediaStore });

  const services = createServices({
    db: database.db,
    reads: database.reads,
    config,
    log: app.log,
    infra,
    mediaStore,
    signToken: app.signToken,
    signAppToken: app.signAppToken,
  });
  app.decorate('services', services);
  app.addHook('onReady', () => services.start());
  // Before onClose, where the database is closed; streams end so the server can close.
  app.addHook('preClose', () => services.stop());

  await app.register(apiRoutes(config, options.validateResponses === true), { prefix: '/api' });

  await app.register(mastodonApi);
  await app.register(feedsRoutes);
  await app.register(pagesRoutes);
  await app.register(webPlugin, { webDir: config.webDir, mediaDir: mediaDirOf(config) });
  return app;
}

/**
 * Routes name how they admit a caller as a preHandler, which runs only once the body has arrived;
 * moved to the route's last onRequest hook, it refuses a caller without a valid token before the
 * body is read, rather than after a slow or large one. (Per-member rate limits stay preHandlers,
 * and find the viewer set.) Answers how the route admits, for the OpenAPI document.
 */
function admitOnArrival(route: RouteOptions, admissions: Map<unknown, Admission>): Admission {
  const preHandlers = [route.preHandler ?? []].flat();
  const admit = preHandlers.find((hook) => admissions.has(hook));
  if (!admit) return 'anyone';
  const rest = preHandlers.filter((hook) => hook !== admit);
  route.preHandler = rest.length > 0 ? rest : undefined;
  route.onRequest = [...[route.onRequest ?? []].flat(), admit];
  return admissions.get(admit) ?? 'anyone';
}

/**
 * With responses checked: a successful answer with a body must have a schema for its status, or
 * it would be written without one.
 */
function requireResponseSchema(request: FastifyRequest, status: number, payload: unknown): void {
  if (status >= 300 || status === 204 || payload === undefined || payload === null) return;
  const responses = request.routeOptions.schema?.response as Record<string, unknown> | undefined;
  if (responses?.[String(status)] !== undefined || responses?.['2xx'] !== undefined) return;
  const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
  throw new Error(`${route} answered ${String(status)} without a response schema`);
}
