import type { PrivacySettings } from '@perch/contract';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { useRequiredSession } from '../../entities/session/SessionProvider';
import { LoadProblem } from './LoadProblem';
import { settingsMessages, useChangePrivacy, usePrivacyQuery } from './settings.queries';
import { SettingsSection } from './SettingsSection';
import { SettingSwitch } from './SettingSwitch';
import { useSwitchDrafts } from './useSwitchDrafts';

export const privacyLabels = {
  publicProfile: 'Show my profile and posts to people who are not signed in',
  noindex: 'Ask search engines not to index my profile',
} as const;

type Setting = keyof PrivacySettings;

/**
 * Who sees the member without signing in, and whether search engines are asked to leave them out.
 * Each switch saves as it changes; a toast and a status line say so.
 */
export function PrivacySection() {
  const { user } = useRequiredSession();
  const query = usePrivacyQuery();
  const change = useChangePrivacy();
  const drafts = useSwitchDrafts<Setting>();
  const [status, setStatus] = useState('');

  const onChange = (setting: Setting, checked: boolean) => {
    setStatus('Saving…');
    drafts.start(setting, checked);
    change.mutate(
      { [setting]: checked },
      {
        onSuccess: () => {
          setStatus(settingsMessages.privacySaved);
          toast.success(settingsMessages.privacySaved);
        },
        onError: (error) => {
          setStatus('');
          toast.error(error.message);
        },
        onSettled: () => {
          drafts.settle(setting);
        },
      },
    );
  };

  let content;
  if (query.data === undefined && query.isError) {
    content = (
      <LoadProblem
        message="Your privacy settings could not be loaded."
        retrying={query.isFetching}
        onRetry={() => {
          void query.refetch();
        }}
      />
    );
  } else if (query.data === undefined) {
    content = (
      <p className="settings-note" role="status">
        Loading your privacy settings…
      </p>
    );
  } else {
    content = (
      <>
        <div className="privacy-options">
          <SettingSwitch
            label={privacyLabels.publicProfile}
            checked={drafts.shown('publicProfile', query.data.publicProfile)}
            hint={`Your page at /@${user.username}, your posts' pages and your feeds. Signed-in members always see you.`}
            onChange={(checked) => {
              onChange('publicProfile', checked);
            }}
          />
          <SettingSwitch
            label={privacyLabels.noindex}
            checked={drafts.shown('noindex', query.data.noindex)}
            hint="Your public pages tell search engines not to list them; most respect it."
            onChange={(checked) => {
              onChange('noindex', checked);
            }}
          />
        </div>
        <p className="settings-note" role="status">
          {status}
        </p>
      </>
    );
  }

  return (
    <SettingsSection
      title="Privacy"
      description="What people who are not signed in, and search engines, can see of you."
    >
      {content}
    </SettingsSection>
  );
}
