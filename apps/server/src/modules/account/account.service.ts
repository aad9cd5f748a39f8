import type {
  AccountDeleteBody,
  PasswordChangeBody,
  PreferencesUpdateBody,
  PrivacyUpdateBody,
} from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { hashPassword, verifyPassword } from '../../lib/password';
import type { AccountDeps, AccountServiceDeps } from './account.deps';
import { changePassword } from './change-password';
import { deleteAccount } from './delete-account';
import { PREFERENCES, PRIVACY } from './setting-groups';
import { changeSettings, readSettings } from './settings';

export type { AccountServiceDeps } from './account.deps';

/**
 * The member's own account: changing the password and deleting the account, both taking the
 * current password again whatever the session, and the privacy settings and reading preferences
 * (exporting it is export.service.ts).
 */
export function createAccountService(serviceDeps: AccountServiceDeps) {
  const deps: AccountDeps = {
    ...serviceDeps,
    passwords: serviceDeps.passwords ?? { hash: hashPassword, verify: verifyPassword },
  };
  return {
    changePassword: (viewer: Viewer, body: PasswordChangeBody) =>
      changePassword(deps, viewer, body),
    deleteAccount: (viewer: Viewer, body: AccountDeleteBody) => deleteAccount(deps, viewer, body),
    privacy: (viewer: Viewer) => readSettings(deps, PRIVACY, viewer),
    changePrivacy: (viewer: Viewer, body: PrivacyUpdateBody) =>
      changeSettings(deps, PRIVACY, viewer, body),
    preferences: (viewer: Viewer) => readSettings(deps, PREFERENCES, viewer),
    changePreferences: (viewer: Viewer, body: PreferencesUpdateBody) =>
      changeSettings(deps, PREFERENCES, viewer, body),
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
