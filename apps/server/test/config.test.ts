import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

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
    });
  });

  it('reads the documented settings', () => {
    const config = load({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/perch',
      DATABASE_URL: 'postgres://perch@db/perch',
      JWT_SECRET: 'x'.repeat(40),
      SEED: 'none',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/var/lib/perch',
      databaseUrl: 'postgres://perch@db/perch',
      jwtSecret: 'x'.repeat(40),
      seedDemoData: false,
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
  ])('stops with a one-line reason for %o', (env, reason) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(reason);
  });
});
