import path from 'node:path';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
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
import { notificationsRoutes } from '../modules/notifications/notifications.routes';
import { postsRoutes } from '../modules/posts/posts.routes';
import { sessionsRoutes } from '../modules/sessions/sessions.routes';
import { safetyRoutes } from '../modules/safety/safety.routes';
import { usersRoutes } from '../modules/users/users.routes';
import { bodyLimitGuard } from './plugins/body-limit';
import { answerClientError, answerFrameworkError, errorHandler } from './plugins/error-handler';
import { inputGuard } from './plugins/input-guard';
import { readRetry } from './plugins/read-retry';
import { securityHeaders } from './plugins/security-headers';
import { webPlugin } from './plugins/web';
import { answerJson } from '../lib/serialized';
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
}

export function mediaDirOf(config: Pick<AppConfig, 'dataDir'>): string {
  return path.resolve(config.dataDir, 'media');
}

/** Brings the database to the latest schema and, when configured, fills an empty one with demo data. */
export async function prepareDatabase(database: DatabaseHandle, config: AppConfig): Promise<void> {
  await migrateToLatest(database.db as Kysely<unknown>);
  if (config.seedDemoData) {
    await seedDemoDataIfEmpty(database.db, {
      passwordHashCost: config.passwordHashCost,
      mediaDir: mediaDirOf(config),
    });
  }
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
    // Ids longer than any Perch issues are refused by the routes' own params schemas (400); past
    // this the router answers 414 before any route runs.
    routerOptions: { maxParamLength: 500 },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
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
  await app.register(rateLimit, { global: false, ...infra.rateLimit });
  await app.register(authPlugin, { config });
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
  });
  app.decorate('services', services);
  app.addHook('onReady', () => services.start());
  // Before onClose, where the database is closed; streams end so the server can close.
  app.addHook('preClose', () => services.stop());

  await app.register(
    async (api) => {
      // API answers are personal (token or session cookie) and change with every write.
      // Fastify sends a serializer's Buffer as it is (reply.js takes a string or a Buffer); its
      // type names only the string.
      api.setReplySerializer(answerJson as (payload: unknown) => string);
      api.addHook('onSend', async (_request, reply) => {
        if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
      });
      await api.register(healthRoutes);
      await api.register(authRoutes, { prefix: '/auth' });
      await api.register(accountRoutes);
      await api.register(sessionsRoutes, { prefix: '/auth/sessions' });
      await api.register(safetyRoutes, { prefix: '/users' });
      await api.register(usersRoutes, { prefix: '/users' });
      await api.register(bookmarksRoutes, { prefix: '/users' });
      await api.register(postsRoutes, { prefix: '/posts' });
      await api.register(commentsRoutes, { prefix: '/comments' });
      await api.register(notificationsRoutes, { prefix: '/notifications' });
      await api.register(discoveryRoutes);
      await api.register(eventsRoutes, { prefix: '/events' });
      await api.register(mediaRoutes, {
        prefix: '/media',
        uploadsPerMinute: config.uploadRateLimitPerMinute,
      });
    },
    { prefix: '/api' },
  );

  await app.register(webPlugin, { webDir: config.webDir, mediaDir: mediaDirOf(config) });
  return app;
}
