import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import serverPackage from '../../../package.json';
import { SESSION_COOKIE } from '../../lib/session-cookie';

export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PREFIX = '/api/docs';

/** The two ways a member is known: the token in the Authorization header, or the session cookie. */
const SECURITY_SCHEMES = {
  token: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The `encodedToken` of login or signup, in the Authorization header (`Bearer <token>`, or the token alone as the original client sends it).',
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      'The session cookie set at login (HttpOnly, SameSite=Strict): for open reads and the event stream; calls that need a member take the header.',
  },
} as const;

const TAG_DESCRIPTIONS: Record<string, string> = {
  health: 'Whether the server and its database answer.',
  auth: 'Signing up, in and out.',
  account: "The member's own account: password, deletion, export.",
  sessions: "The member's signed-in devices.",
  safety: 'Block and mute.',
  users: 'Members, profiles and follows.',
  bookmarks: "The member's bookmarked posts.",
  posts: 'Posts, feeds and likes.',
  comments: 'Comments and their votes.',
  notifications: "The member's notifications.",
  discovery: 'Search, tags and trends.',
  events: 'Live events (Server-Sent Events).',
  media: 'Image uploads.',
};

/** Only the API is described: the web app's pages and assets are not calls. */
function isDocumented(url: string): boolean {
  return url.startsWith('/api/') && url !== OPENAPI_PATH && !url.startsWith(API_DOCS_PREFIX);
}

/**
 * Collects every route into an OpenAPI 3.1 document built from the contract's zod schemas
 * (GET /api/openapi.json, built once) with a readable reference at /api/docs, served from the
 * package's own files. Registered before the routes, which it learns of as they are added.
 */
export const openApi = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Perch',
          version: serverPackage.version,
          description:
            'The API of Perch, a self-hostable social microblogging app. Every error answers `{ errors: string[] }`.',
        },
        tags: Object.entries(TAG_DESCRIPTIONS).map(([name, description]) => ({
          name,
          description,
        })),
        components: { securitySchemes: SECURITY_SCHEMES },
      },
      transform: (document) => {
        if (!isDocumented(document.url)) return { schema: { hide: true }, url: document.url };
        // A module's '/' answers with and without the slash; the document names it without.
        return { ...jsonSchemaTransform(document), url: document.url.replace(/(.)\/$/, '$1') };
      },
      transformObject: jsonSchemaTransformObject,
    });

    let document: string | undefined;
    app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) => {
      document ??= JSON.stringify(app.swagger());
      return reply.type('application/json; charset=utf-8').send(document);
    });

    await app.register(swaggerUi, {
      routePrefix: API_DOCS_PREFIX,
      // No validator badge: it would ask a server elsewhere about the document.
      uiConfig: { docExpansion: 'list', deepLinking: true, validatorUrl: null },
    });
  },
  { name: 'perch-openapi' },
);

/** How a route's preHandler admits a member, for the document's `security`. */
export type Admission = 'member' | 'session' | 'optional' | 'anyone';

const SECURITY_BY_ADMISSION: Record<Admission, readonly Record<string, string[]>[] | undefined> = {
  member: [{ token: [] }],
  session: [{ token: [] }, { session: [] }],
  optional: [{}, { token: [] }, { session: [] }],
  anyone: undefined,
};

/** Adds a route's module tag and security to its schema, as the document shows them. */
export function describeRoute(route: RouteOptions, tag: string, admission: Admission): void {
  const schema = (route.schema ??= {}) as Record<string, unknown>;
  schema.tags ??= [tag];
  const security = SECURITY_BY_ADMISSION[admission];
  if (security && schema.security === undefined) schema.security = security;
}
