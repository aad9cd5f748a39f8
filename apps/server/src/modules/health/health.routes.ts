import { healthResponseSchema } from '@perch/contract';
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const schema = {
    response: { 200: healthResponseSchema },
    summary: 'Whether the server and its database answer',
  };
  app.get('/health', { schema }, async () => {
    await sql`select 1`.execute(app.db);
    return { status: 'ok' as const };
  });
};
