import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { ConfigError, loadConfig, type AppConfig } from './config';

const here = path.dirname(fileURLToPath(import.meta.url));
// Both src/server.ts and dist/server.js sit two levels below apps/.
const defaultWebDir = path.resolve(here, '../../web/dist');

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(process.env, { webDir: defaultWebDir });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`perch: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  const app = await buildApp(config);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => {
    shutdown('SIGINT');
  });
  process.on('SIGTERM', () => {
    shutdown('SIGTERM');
  });

  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  const reason = error instanceof Error ? error.message : String(error);
  console.error(`perch: could not start: ${reason}`);
  process.exit(1);
});
