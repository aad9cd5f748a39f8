import type { Viewer } from '../../lib/viewer';
import { unauthorized } from '../../lib/errors';
import type { UserRow } from '../../platform/db/schema';
import type { AccountDeps } from './account.deps';
import * as repo from './account.repository';

/**
 * A group of a member's settings kept as 0-or-1 flags on their row, each API field with its
 * column: the privacy settings and the reading preferences are each one.
 */
export type SettingGroup<Field extends string> = Record<Field, repo.SettingColumn>;

function answerOf<Field extends string>(
  group: SettingGroup<Field>,
  row: Partial<Record<repo.SettingColumn, number>>,
): Record<Field, boolean> {
  const settings = {} as Record<Field, boolean>;
  for (const field of Object.keys(group) as Field[]) settings[field] = row[group[field]] === 1;
  return settings;
}

/** The group's settings; 401 when the account is gone under a still-valid token. */
export async function readSettings<Field extends string>(
  { users }: Pick<AccountDeps, 'users'>,
  group: SettingGroup<Field>,
  viewer: Viewer,
): Promise<Record<Field, boolean>> {
  const row: UserRow | undefined = await users.recordById(viewer.id);
  if (!row) throw unauthorized();
  return answerOf(group, row);
}

/**
 * Changes the settings given, leaving the others, and answers the group as it is after the change.
 * No event: what reads them reads them with the member on every request.
 */
export async function changeSettings<Field extends string>(
  { transact }: Pick<AccountDeps, 'transact'>,
  group: SettingGroup<Field>,
  viewer: Viewer,
  changes: Partial<Record<Field, boolean>>,
): Promise<Record<Field, boolean>> {
  const updates: Partial<Record<repo.SettingColumn, number>> = {};
  for (const field of Object.keys(group) as Field[]) {
    const value = changes[field];
    if (value !== undefined) updates[group[field]] = value ? 1 : 0;
  }
  const row = await transact(async (trx) => {
    if (!(await repo.updateSettings(trx, viewer.id, updates))) return undefined;
    return repo.settingsOf(trx, viewer.id, Object.values<repo.SettingColumn>(group));
  });
  if (!row) throw unauthorized();
  return answerOf(group, row);
}
