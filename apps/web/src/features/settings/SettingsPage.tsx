import { PageHeader } from '../layout/PageHeader';
import { DataSection } from './DataSection';
import { DevicesSection } from './DevicesSection';
import { PasswordSection } from './PasswordSection';
import { ProfileSection } from './ProfileSection';
import './settings.css';

/** The member's account: profile, password, signed-in devices, and their data. */
export function SettingsPage() {
  return (
    <section className="page settings">
      <PageHeader title="Settings" subtitle="Your account and its safety." />
      <div className="settings__sections">
        <ProfileSection />
        <PasswordSection />
        <DevicesSection />
        <DataSection />
      </div>
    </section>
  );
}
