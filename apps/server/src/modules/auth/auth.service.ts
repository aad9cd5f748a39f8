import { randomBytes } from 'node:crypto';
import { ErrorMessages, type LoginBody, type User } from '@perch/contract';
import type { SessionViewer, Viewer } from '../../lib/viewer';
import type { UserRow } from '../../platform/db/schema';
import type { SessionsService } from '../sessions/sessions.service';
import { isUniqueViolation } from '../../platform/db/dialect';
import { AppError, notFound, unprocessable } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { SCRYPT_PREFIX, hashPassword, verifyPassword } from '../../lib/password';
import { toUser } from '../users/users.mapper';
import type { UsersService } from '../users/users.service';

export interface SignupInput {
  firstName: string;
  lastName: string;
  email: string;
  username: string;
  password: string;
}

export interface PasswordHasher {
  hash: (password: string, cost: number) => Promise<string>;
  verify: (password: string, stored: string) => Promise<boolean>;
}

export interface AuthDeps {
  users: Pick<UsersService, 'recordById' | 'recordByUsername' | 'register'>;
  sessions: Pick<SessionsService, 'open' | 'revoke'>;
  passwordHashCost: number;
  signToken: (viewer: SessionViewer) => string;
  passwords?: PasswordHasher;
}

/** Where a sign-in comes from, kept with its session. */
export interface SignInContext {
  userAgent: string;
}

export function createAuthService({
  users,
  sessions,
  passwordHashCost,
  signToken,
  passwords = { hash: hashPassword, verify: verifyPassword },
}: AuthDeps) {
  // Made once, of a random password: checking against it costs what checking a member's hash does,
  // so a login for a name no one has (or for a member who cannot sign in) takes as long as any.
  let dummyHash: Promise<string> | undefined;
  const dummy = () =>
    (dummyHash ??= passwords.hash(randomBytes(16).toString('hex'), passwordHashCost));

  /** A token for a new session of the member. */
  async function openSession(row: UserRow, context: SignInContext): Promise<string> {
    const session = await sessions.open(row.id, context.userAgent);
    return signToken({ id: row.id, username: row.username, sessionId: session.id });
  }

  return {
    async signup(
      input: SignupInput,
      context: SignInContext,
    ): Promise<{ encodedToken: string; createdUser: User }> {
      if (await users.recordByUsername(input.username)) {
        throw unprocessable(ErrorMessages.usernameTaken);
      }
      const now = Date.now();
      const passwordHash = await passwords.hash(input.password, passwordHashCost);
      try {
        const row = await users.register({
          id: newId(now),
          username: input.username,
          first_name: input.firstName,
          last_name: input.lastName,
          email: input.email,
          password_hash: passwordHash,
          avatar_url: null,
          created_at: now,
          updated_at: now,
        });
        return {
          encodedToken: await openSession(row, context),
          createdUser: toUser(row, { includeEmail: true }),
        };
      } catch (error) {
        // Two signups racing for one name: the unique index decides.
        if (isUniqueViolation(error)) throw unprocessable(ErrorMessages.usernameTaken);
        throw error;
      }
    },

    async login(
      { username, password }: LoginBody,
      context: SignInContext,
    ): Promise<{ encodedToken: string; foundUser: User }> {
      const row = await users.recordByUsername(username);
      const stored = row?.password_hash.startsWith(SCRYPT_PREFIX) ? row.password_hash : undefined;
      const matches = await passwords.verify(password, stored ?? (await dummy()));
      if (!row) throw notFound(ErrorMessages.notRegistered);
      if (stored === undefined || !matches) {
        throw new AppError(401, ErrorMessages.invalidCredentials);
      }
      return {
        encodedToken: await openSession(row, context),
        foundUser: toUser(row, { includeEmail: true }),
      };
    },

    /** Ends the viewer's session (logout). */
    async logout(viewer: Viewer): Promise<void> {
      if (viewer.sessionId) await sessions.revoke(viewer.id, [viewer.sessionId]);
    },

    /** Ends every session of the member but this one. */
    async logoutElsewhere(viewer: Viewer): Promise<void> {
      await sessions.revoke(viewer.id, null, viewer.sessionId);
    },

    /** Ends every session of the member, this one included. */
    async logoutEverywhere(viewer: Viewer): Promise<void> {
      await sessions.revoke(viewer.id, null);
    },

    async currentUser(viewer: Viewer): Promise<{ user: User }> {
      const row = await users.recordById(viewer.id);
      if (!row) throw notFound(ErrorMessages.notRegistered);
      return { user: toUser(row, { includeEmail: true }) };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
