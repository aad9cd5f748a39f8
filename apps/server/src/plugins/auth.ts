import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorMessages } from '@perch/contract';
import type { AppConfig } from '../config';
import { notFound, unauthorized } from '../lib/errors';
import type { Viewer } from '../modules/auth/auth.service';
import { findViewerById } from '../modules/users/users.repository';

interface TokenPayload {
  username: string;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: TokenPayload;
    user: { sub: string; username: string };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler for calls that need a member: verifies the token and that its member exists. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** preHandler for open calls: sets the viewer when a valid token comes along. */
    identify: (request: FastifyRequest) => Promise<void>;
    signToken: (viewer: Viewer) => string;
  }
  interface FastifyRequest {
    viewer: Viewer | null;
  }
}

/** The configured secret, or one generated on first start and kept in the data directory. */
export function resolveJwtSecret(config: Pick<AppConfig, 'jwtSecret' | 'dataDir'>): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.join(config.dataDir, 'secrets', 'jwt-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString('base64url');
  // 'wx' fails if another process wrote it first; then that one's secret wins.
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch {
    return readFileSync(file, 'utf8').trim();
  }
}

function extractToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  if (!header) return undefined;
  // The product's client sends the raw token; standard clients send "Bearer <token>".
  return /^bearer\s+/i.test(header) ? header.replace(/^bearer\s+/i, '') : header;
}

export const authPlugin = fp(async (app: FastifyInstance, options: { config: AppConfig }) => {
  const { config } = options;
  await app.register(fastifyJwt, {
    secret: resolveJwtSecret(config),
    sign: { algorithm: 'HS256', expiresIn: config.tokenTtlSeconds },
    verify: { algorithms: ['HS256'], extractToken },
  });

  app.decorateRequest('viewer', null);

  async function verify(request: FastifyRequest): Promise<Viewer> {
    let payload: { sub: string; username: string };
    try {
      payload = await request.jwtVerify();
    } catch {
      throw unauthorized(ErrorMessages.invalidToken);
    }
    if (typeof payload.sub !== 'string' || typeof payload.username !== 'string') {
      throw unauthorized(ErrorMessages.invalidToken);
    }
    const viewer = await findViewerById(app.db, payload.sub);
    if (!viewer) throw notFound(ErrorMessages.notRegistered);
    return viewer;
  }

  app.decorate('authenticate', async (request: FastifyRequest) => {
    request.viewer = await verify(request);
  });
  app.decorate('identify', async (request: FastifyRequest) => {
    if (extractToken(request) !== undefined) request.viewer = await verify(request);
  });
  app.decorate('signToken', (viewer: Viewer) =>
    app.jwt.sign({ username: viewer.username }, { sub: viewer.id }),
  );
});

/** The member a preHandler put on the request; calling it on an open route is a programming error. */
export function viewerOf(request: FastifyRequest): Viewer {
  if (!request.viewer) throw unauthorized(ErrorMessages.invalidToken);
  return request.viewer;
}
