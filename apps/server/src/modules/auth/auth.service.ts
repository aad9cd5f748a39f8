import { ErrorMessages, type LoginBody, type User } from '@perch/contract';
import type { Viewer } from '../../auth/viewer';
import { isUniqueViolation } from '../../db/dialect';
import { AppError, notFound, unprocessable } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { hashPassword, verifyPassword } from '../../lib/password';
import { toUser } from '../users/users.mapper';
import type { UsersService } from '../users/users.service';

export interface SignupInput {
  firstName: string;
  lastName: string;
  email: string;
  username: string;
  password: string;
}

export interface AuthDeps {
  users: Pick<UsersService, 'recordById' | 'recordByUsername' | 'register'>;
  passwordHashCost: number;
  signToken: (viewer: Viewer) => string;
}

export function createAuthService({ users, passwordHashCost, signToken }: AuthDeps) {
  return {
    async signup(input: SignupInput): Promise<{ encodedToken: string; createdUser: User }> {
      if (await users.recordByUsername(input.username)) {
        throw unprocessable(ErrorMessages.usernameTaken);
      }
      const now = Date.now();
      const passwordHash = await hashPassword(input.password, passwordHashCost);
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
      const row = await users.recordByUsername(username);
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
      const row = await users.recordById(viewer.id);
      if (!row) throw notFound(ErrorMessages.notRegistered);
      return { user: toUser(row, { includeEmail: true }) };
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
