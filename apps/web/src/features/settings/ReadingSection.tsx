import { useState } from 'react';
import toast from 'react-hot-toast';
import { useChangePreferences, usePreferences } from '../../entities/session/preferences';
import { SettingsSection } from './SettingsSection';
import { SettingSwitch } from './SettingSwitch';
import { useSwitchDrafts } from './useSwitchDrafts';

export const readingLabels = {
  alwaysShowSensitiveMedia: 'Always show sensitive media',
} as const;

export const PREFERENCES_SAVED = 'Reading preferences saved.';

/** How the member reads others' posts. The switch saves as it changes; a toast says so. */
export function ReadingSection() {
  const preferences = usePreferences();
  const change = useChangePreferences();
  const drafts = useSwitchDrafts<'alwaysShowSensitiveMedia'>();
  const [status, setStatus] = useState('');
  return (
    <SettingsSection title="Reading" description="How other people's posts show to you.">
      <div className="privacy-options">
        <SettingSwitch
          label={readingLabels.alwaysShowSensitiveMedia}
          checked={drafts.shown('alwaysShowSensitiveMedia', preferences.alwaysShowSensitiveMedia)}
          hint="Images marked sensitive show at once instead of blurred. Posts behind a content warning stay closed until you open them."
          onChange={(checked) => {
            setStatus('Saving…');
            drafts.start('alwaysShowSensitiveMedia', checked);
            change.mutate(
              { alwaysShowSensitiveMedia: checked },
              {
                onSuccess: () => {
                  setStatus(PREFERENCES_SAVED);
                  toast.success(PREFERENCES_SAVED);
                },
                onError: (error) => {
                  setStatus('');
                  toast.error(error.message);
                },
                onSettled: () => {
                  drafts.settle('alwaysShowSensitiveMedia');
                },
              },
            );
          }}
        />
      </div>
      <p className="settings-note" role="status">
        {status}
      </p>
    </SettingsSection>
  );
}
