import { SafetyList } from './SafetyList';
import { SettingsSection } from './SettingsSection';

/** The members the viewer blocked and muted, to unblock or unmute them. */
export function SafetySection() {
  return (
    <SettingsSection
      title="Blocked and muted"
      description="Blocked members can't see your profile or posts, and you don't see theirs. You don't see muted members' posts; they are not told."
    >
      <div className="safety-lists">
        <SafetyList kind="blocked" />
        <SafetyList kind="muted" />
      </div>
    </SettingsSection>
  );
}
