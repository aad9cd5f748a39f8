import { PageHeader } from '../../shared/components/PageHeader';
import { DataSection } from './DataSection';
import { DevicesSection } from './DevicesSection';
import { PasswordSection } from './PasswordSection';
import { PrivacySection } from './PrivacySection';
import { ProfileSection } from './ProfileSection';
import { ReadingSection } from './ReadingSection';
import { SafetySection } from './SafetySection';
import './settings.css';

/**
 * The member's account: profile, password, privacy, reading preferences, signed-in devices,
 * blocked and muted members, and their data.
 */
export function SettingsPage() {
  return (
    <section className="page settings">
      <PageHeader title="Settings" subtitle="Your account and its safety." />
      <div className="settings__sections">
        <ProfileSection />
        <PasswordSection />
        <PrivacySection />
        <ReadingSection />
        <DevicesSection />
        <SafetySection />
        <DataSection />
      </div>
    </section>
  );
}
