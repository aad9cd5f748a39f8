import { z } from 'zod';
import { errorBodySchema } from './errors';

// What the API answers besides its records: no content, errors, files and streams.

/** The body of a 204: none (`type: null` tells the OpenAPI document there is no content). */
export const noContentSchema = z
  .undefined()
  .meta({ type: 'null', description: 'Done; no content.' });

/** Every call may answer an error, always in the one shape of errors.ts. */
export const errorResponseSchemas = {
  '4xx': errorBodySchema.describe("Refused: the messages say why, in the product's words."),
  '5xx': errorBodySchema.describe('The server could not answer; the messages say so.'),
} as const;

/** GET /api/users/me/export: the member's archive, one zip file. */
export const accountExportResponseSchema = {
  description: "The member's archive (a zip file of JSON files and their media).",
  content: {
    // Any: the server sends a stream, not a value to serialize.
    'application/zip': { schema: z.any().meta({ type: 'string', format: 'binary' }) },
  },
};

/** GET /api/events: Server-Sent Events, one JSON domain event per `data:` line. */
export const eventStreamResponseSchema = {
  description: "The member's live events as Server-Sent Events (text/event-stream).",
  content: { 'text/event-stream': { schema: z.string() } },
};
