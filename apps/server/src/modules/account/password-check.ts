import { AccountErrors, GUEST_CREDENTIALS } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import type { UserRow } from '../../platform/db/schema';
import { badRequest, forbidden, unauthorized } from '../../lib/errors';
import { SCRYPT_PREFIX } from '../../lib/password';
import type { AccountDeps } from './account.deps';

/** The viewer's row, once `password` proved to be theirs (400 otherwise). */
export async function memberWithPassword(
  { users, passwords }: Pick<AccountDeps, 'users' | 'passwords'>,
  viewer: Viewer,
  password: string,
): Promise<UserRow> {
  const row = await users.recordById(viewer.id);
  // Deleted meanwhile (by another of their sessions): the token speaks for no one.
  if (!row) throw unauthorized();
  // Hashes of another scheme (demo members' '!') match no password.
  const matches =
    row.password_hash.startsWith(SCRYPT_PREFIX) &&
    (await passwords.verify(password, row.password_hash));
  if (!matches) throw badRequest(AccountErrors.wrongPassword);
  // Everyone signs in as the guest with the published password: no one may take it away.
  if (row.username === GUEST_CREDENTIALS.username) throw forbidden(AccountErrors.sharedGuest);
  return row;
}
