import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/app/config';

const load = (env: Record<string, string>) => loadConfig(env, { webDir: '/srv/web' });

describe('loadConfig', () => {
  it('has working defaults', () => {
    expect(load({})).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: './data',
      databaseUrl: null,
      jwtSecret: null,
      seedDemoData: true,
      webDir: '/srv/web',
      workers: 1,
      redisUrl: null,
      trustProxy: false,
      homeTimelineLength: 800,
      homeTimelineIdleDays: 14,
      homePullFollowers: 2_000,
      cardCacheSize: 10_000,
      packedCardCacheSize: 12_000,
      trendingCacheSeconds: 60,
      heapGrowthPercent: 15,
      sqliteCacheMiB: 8,
    });
  });

  it('reads PUBLIC_URL as an origin, and refuses one with a path', () => {
    expect(load({}).publicUrl).toBeNull();
    expect(load({ PUBLIC_URL: 'https://perch.example/' }).publicUrl).toBe('https://perch.example');
    expect(load({ PUBLIC_URL: 'http://localhost:3000' }).publicUrl).toBe('http://localhost:3000');
    expect(() => load({ PUBLIC_URL: 'https://perch.example/app' })).toThrow(ConfigError);
    expect(() => load({ PUBLIC_URL: 'ftp://perch.example' })).toThrow(ConfigError);
    expect(() => load({ PUBLIC_URL: 'perch.example' })).toThrow(ConfigError);
  });

  it('compresses answers unless COMPRESSION is off', () => {
    expect(load({}).compression).toBe(true);
    expect(load({ COMPRESSION: 'off' }).compression).toBe(false);
    expect(() => load({ COMPRESSION: 'gzip' })).toThrow(ConfigError);
  });

  it('reads the timeline and cache settings, and refuses bad ones', () => {
    const config = load({
      HOME_TIMELINE_LENGTH: '200',
      HOME_TIMELINE_IDLE_DAYS: '3',
      CARD_CACHE_SIZE: '500',
      HOME_PULL_FOLLOWERS: '50',
    });
    expect(config).toMatchObject({
      homeTimelineLength: 200,
      homeTimelineIdleDays: 3,
      cardCacheSize: 500,
      homePullFollowers: 50,
    });
    expect(() => load({ HOME_PULL_FOLLOWERS: '0' })).toThrow(ConfigError);
    expect(() => load({ HOME_TIMELINE_LENGTH: '5' })).toThrow(ConfigError);
    expect(() => load({ CARD_CACHE_SIZE: '-1' })).toThrow(ConfigError);
    expect(() => load({ CARD_CACHE_SIZE: '0' })).toThrow(ConfigError);
    expect(load({ PACKED_CARD_CACHE_SIZE: '0' }).packedCardCacheSize).toBe(0);
    expect(() => load({ PACKED_CARD_CACHE_SIZE: '-1' })).toThrow(ConfigError);
    expect(() => load({ PACKED_CARD_CACHE_SIZE: 'many' })).toThrow(ConfigError);
    expect(() => load({ HOME_TIMELINE_IDLE_DAYS: 'never' })).toThrow(ConfigError);
    expect(load({ TRENDING_CACHE_SECONDS: '0' }).trendingCacheSeconds).toBe(0);
    expect(() => load({ TRENDING_CACHE_SECONDS: '-5' })).toThrow(ConfigError);
    expect(load({ HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent).toBe(0);
    expect(load({ HEAP_GROWTH_PERCENT: '50' }).heapGrowthPercent).toBe(50);
    expect(() => load({ HEAP_GROWTH_PERCENT: '-1' })).toThrow(ConfigError);
    expect(() => load({ HEAP_GROWTH_PERCENT: '12.5' })).toThrow(ConfigError);
    expect(load({ SQLITE_CACHE_MB: '64' }).sqliteCacheMiB).toBe(64);
    expect(() => load({ SQLITE_CACHE_MB: '0' })).toThrow(ConfigError);
  });

  it('reads which proxies to trust', () => {
    expect(load({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(load({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16' }).trustProxy).toBe('10.0.0.1, 10.1.0.0/16');
    expect(() => load({ TRUST_PROXY: 'everyone' })).toThrow(ConfigError);
  });

  it('reads the documented settings', () => {
    const config = load({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/perch',
      DATABASE_URL: 'postgres://perch@db/perch',
      JWT_SECRET: 'x'.repeat(40),
      SEED: 'none',
      REDIS_URL: 'redis://cache:6379/2',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/var/lib/perch',
      databaseUrl: 'postgres://perch@db/perch',
      jwtSecret: 'x'.repeat(40),
      seedDemoData: false,
      redisUrl: 'redis://cache:6379/2',
    });
  });

  it('accepts rediss:// and credentials in REDIS_URL, and treats a blank one as unset', () => {
    expect(load({ REDIS_URL: 'rediss://:s3cret@cache.internal:6380' }).redisUrl).toBe(
      'rediss://:s3cret@cache.internal:6380',
    );
    expect(load({ REDIS_URL: '  ' }).redisUrl).toBeNull();
  });

  it('uses Redis with SQLite too, without asking for a secret', () => {
    expect(load({ REDIS_URL: 'redis://127.0.0.1:6379' })).toMatchObject({
      databaseUrl: null,
      jwtSecret: null,
      redisUrl: 'redis://127.0.0.1:6379',
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a number'],
    [{ PORT: '70000' }, 'PORT must be between 0 and 65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a postgres:// URL'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET must be at least 32 characters'],
    [{ SEED: 'lots' }, 'SEED must be "demo" or "none"'],
    [{ PASSWORD_HASH_COST: '1000' }, 'PASSWORD_HASH_COST must be a power of two'],
    [{ WORKERS: '0' }, 'WORKERS must be at least 1'],
    [{ WORKERS: 'many' }, 'WORKERS must be a number'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
    [{ REDIS_URL: 'cache:6379' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
    [{ REDIS_URL: 'redis://' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
    [
      { DATABASE_URL: 'postgres://perch@db/perch' },
      'JWT_SECRET must be set when DATABASE_URL is set: every instance sharing the database needs the same secret',
    ],
    [
      { DATABASE_URL: 'postgres://perch@db/perch', JWT_SECRET: '' },
      'JWT_SECRET must be set when DATABASE_URL is set',
    ],
  ])('stops with a one-line reason for %o', (env, reason) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(reason);
  });
});
