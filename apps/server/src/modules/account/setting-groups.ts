import type { PrivacySettings } from '@perch/contract';
import type { SettingGroup } from './settings';

/**
 * Who sees the member without signing in, and whether search engines are asked to leave them out.
 * Nothing keeps them in a cache (public pages and feeds read them with the member on every
 * request, see UsersService.publicMember), and HTTP caches keep a public page a minute at most.
 */
export const PRIVACY: SettingGroup<keyof PrivacySettings> = {
  publicProfile: 'public_profile',
  noindex: 'noindex',
};

/**
 * How the member reads others' posts. The web app reads them once a session and applies them on
 * the device; other devices see a change on their next load.
 */
export const PREFERENCES: SettingGroup<'alwaysShowSensitiveMedia'> = {
  alwaysShowSensitiveMedia: 'always_show_sensitive',
};
