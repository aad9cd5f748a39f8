import { useId, type ReactNode, type Ref } from 'react';

interface SettingsSectionProps {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** The heading, e.g. to take focus back after the content it leads changed. */
  headingRef?: Ref<HTMLHeadingElement>;
  tone?: 'default' | 'danger';
}

/** One part of the settings page: a region named by its heading. */
export function SettingsSection({
  title,
  description,
  children,
  headingRef,
  tone = 'default',
}: SettingsSectionProps) {
  const headingId = useId();
  return (
    <section className={`settings-section settings-section--${tone}`} aria-labelledby={headingId}>
      <header className="settings-section__header">
        <h2 id={headingId} ref={headingRef} tabIndex={-1} className="settings-section__title">
          {title}
        </h2>
        {description !== undefined && <p className="settings-section__text">{description}</p>}
      </header>
      {children}
    </section>
  );
}
