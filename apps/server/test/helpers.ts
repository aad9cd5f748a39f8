import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app/app';
import type { AppConfig } from '../src/app/config';
import { createTestDatabase } from './test-database';

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  close: () => Promise<void>;
}

export function testConfig(dataDir: string, overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    dataDir,
    databaseUrl: null,
    jwtSecret: 'test-secret-that-is-long-enough-to-be-accepted',
    tokenTtlSeconds: 3600,
    // Cheap hashes keep the suite quick; the scheme is the same as in production.
    passwordHashCost: 1024,
    seedDemoData: false,
    authRateLimitPerMinute: 0,
    uploadRateLimitPerMinute: 0,
    mediaSweepIntervalMinutes: 0,
    logLevel: 'silent',
    webDir: null,
    workers: 1,
    redisUrl: null,
    trustProxy: false,
    publicUrl: null,
    compression: true,
    homeTimelineLength: 800,
    homeTimelineIdleDays: 14,
    homePullFollowers: 2_000,
    cardCacheSize: 10_000,
    packedCardCacheSize: 12_000,
    trendingCacheSeconds: 0,
    heapGrowthPercent: 0,
    sqliteCacheMiB: 8,
    headersTimeoutMs: 30_000,
    requestTimeoutMs: 60_000,
    keepAliveTimeoutMs: 72_000,
    // Off unless a test turns it on: a link in a test's post must not reach out of the machine.
    linkPreviews: false,
    linkPreviewAllowPrivate: false,
    ...overrides,
  };
}

/** The app on a fresh, empty database (SQLite, or PostgreSQL on the server:postgres run). */
export async function createTestApp(overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'perch-test-'));
  const database = await createTestDatabase(dataDir);
  const config = testConfig(dataDir, overrides);
  // Every answer of the suite is checked against its contract schema.
  const app = await buildApp(config, {
    database: database.handle,
    logger: false,
    validateResponses: true,
  });
  return {
    app,
    config,
    close: async () => {
      await app.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function authHeader(token: string): Record<string, string> {
  return { authorization: token };
}

export async function call(
  app: FastifyInstance,
  options: InjectOptions & { token?: string },
): Promise<LightMyRequestResponse> {
  const { token, headers, ...rest } = options;
  return app.inject({ ...rest, headers: { ...headers, ...(token ? authHeader(token) : {}) } });
}
