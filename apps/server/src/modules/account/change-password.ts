import { AccountErrors, type PasswordChangeBody } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { badRequest } from '../../lib/errors';
import type { AccountDeps } from './account.deps';
import { memberWithPassword } from './password-check';

/**
 * A new password (the signup rules, checked by the body's schema) for the right current one;
 * every other session of the member ends in the same transaction.
 */
export async function changePassword(
  deps: AccountDeps,
  viewer: Viewer,
  body: PasswordChangeBody,
): Promise<void> {
  const { passwords, passwordHashCost, transact, users, sessions } = deps;
  const row = await memberWithPassword(deps, viewer, body.currentPassword);
  if (await passwords.verify(body.newPassword, row.password_hash)) {
    throw badRequest(AccountErrors.samePassword);
  }
  const hash = await passwords.hash(body.newPassword, passwordHashCost);
  const ended = await transact(async (trx, events) => {
    // Another change won the race: the current password checked above is no longer it.
    if (!(await users.replacePasswordHash(trx, row.id, row.password_hash, hash))) {
      throw badRequest(AccountErrors.wrongPassword);
    }
    return sessions.revokeWithin(trx, events, row.id, null, viewer.sessionId);
  });
  sessions.forget(ended);
}
