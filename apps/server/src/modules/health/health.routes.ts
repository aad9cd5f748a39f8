import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', async () => {
    await sql`select 1`.execute(app.db);
    return { status: 'ok' as const };
  });
};
