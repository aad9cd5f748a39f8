import type { SignupResponse, User } from '@perch/contract';
import type { FastifyInstance } from 'fastify';

let sequence = 0;

export interface Member {
  user: User;
  token: string;
  password: string;
}

export function signupPayload(overrides: Record<string, unknown> = {}) {
  sequence += 1;
  const username = `member_${process.pid}_${sequence}`;
  return {
    firstName: 'Test',
    lastName: `Member${sequence}`,
    email: `${username}@example.com`,
    username,
    password: 'correct horse battery',
    confirmPassword: 'correct horse battery',
    ...overrides,
  };
}

/** Signs a new member up through the API, as a client would. */
export async function createMember(
  app: FastifyInstance,
  overrides: Record<string, unknown> = {},
): Promise<Member> {
  const payload = signupPayload(overrides);
  const response = await app.inject({ method: 'POST', url: '/api/auth/signup', payload });
  if (response.statusCode !== 201) {
    throw new Error(`signup failed: ${response.statusCode} ${response.body}`);
  }
  const body = response.json<SignupResponse>();
  return { user: body.createdUser, token: body.encodedToken, password: payload.password };
}
