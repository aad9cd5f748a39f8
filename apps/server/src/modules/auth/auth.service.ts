import { ErrorMessages, type LoginBody, type User } from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { isUniqueViolation } from '../../lib/db-errors';
import { AppError, notFound, unprocessable } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { hashPassword, verifyPassword } from '../../lib/password';
import { findUserById, findUserByUsername, insertUser } from '../users/users.repository';
import { toUser } from '../users/users.mapper';

export interface Viewer {
  id: string;
  username: string;
}

export interface SignupInput {
  firstName: string;
  lastName: string;
  email: string;
  username: string;
  password: string;
}

export interface AuthDeps {
  db: Kysely<Database>;
  passwordHashCost: number;
  signToken: (viewer: Viewer) => string;
}

export function createAuthService({ db, passwordHashCost, signToken }: AuthDeps) {
  return {
    async signup(input: SignupInput): Promise<{ encodedToken: string; createdUser: User }> {
      if (await findUserByUsername(db, input.username)) {
        throw unprocessable(ErrorMessages.usernameTaken);
      }
      const now = Date.now();
      const passwordHash = await hashPassword(input.password, passwordHashCost);
      try {
        const row = await insertUser(db, {
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
          encodedToken: signToken({ id: row.id, username: row.username }),
          createdUser: toUser(row, { includeEmail: true }),
        };
      } catch (error) {
        // Two signups racing for one name: the unique index decides.
        if (isUniqueViolation(error)) throw unprocessable(ErrorMessages.usernameTaken);
        throw error;
      }
    },

    async login({
      username,
      password,
    }: LoginBody): Promise<{ encodedToken: string; foundUser: User }> {
      const row = await findUserByUsername(db, username);
      if (!row) throw notFound(ErrorMessages.notRegistered);
      if (!(await verifyPassword(password, row.password_hash))) {
        throw new AppError(401, ErrorMessages.invalidCredentials);
      }
      return {
        encodedToken: signToken({ id: row.id, username: row.username }),
        foundUser: toUser(row, { includeEmail: true }),
      };
    },

    async currentUser(viewer: Viewer): Promise<{ user: User }> {
      const row = await findUserById(db, viewer.id);
      if (!row) throw notFound(ErrorMessages.notRegistered);
      return { user: toUser(row, { includeEmail: true }) };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
