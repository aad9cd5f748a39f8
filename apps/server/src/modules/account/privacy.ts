import type { PrivacySettings, PrivacyUpdateBody } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { unauthorized } from '../../lib/errors';
import { sqlBoolean } from '../../platform/db/dialect';
import type { UserRow } from '../../platform/db/schema';
import type { AccountDeps } from './account.deps';
import * as repo from './account.repository';

type Row = Pick<UserRow, 'public_profile' | 'noindex'>;

const settingsOf = (row: Row): PrivacySettings => ({
  publicProfile: sqlBoolean(row.public_profile),
  noindex: sqlBoolean(row.noindex),
});

/** The member's privacy settings; 401 when their account is gone under a still-valid token. */
export async function privacySettings(
  { users }: Pick<AccountDeps, 'users'>,
  viewer: Viewer,
): Promise<PrivacySettings> {
  const row = await users.recordById(viewer.id);
  if (!row) throw unauthorized();
  return settingsOf(row);
}

/**
 * Changes either setting or both, answering them as they are after the change. No event: nothing
 * keeps the settings in a cache (public pages and feeds read them with the member on every
 * request, see UsersService.publicMember), and HTTP caches keep a public page a minute at most.
 */
export async function changePrivacy(
  { transact }: Pick<AccountDeps, 'transact'>,
  viewer: Viewer,
  body: PrivacyUpdateBody,
): Promise<PrivacySettings> {
  const changes: { public_profile?: number; noindex?: number } = {};
  if (body.publicProfile !== undefined) changes.public_profile = body.publicProfile ? 1 : 0;
  if (body.noindex !== undefined) changes.noindex = body.noindex ? 1 : 0;
  const row = await transact(async (trx) => {
    if (!(await repo.updatePrivacy(trx, viewer.id, changes))) return undefined;
    return repo.privacyOf(trx, viewer.id);
  });
  if (!row) throw unauthorized();
  return settingsOf(row);
}
