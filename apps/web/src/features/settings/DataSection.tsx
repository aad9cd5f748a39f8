import { AccountErrors } from '@perch/contract';
import { useState } from 'react';
import { Button } from '../../shared/components/Button';
import { isApiError } from '../../shared/lib/api';
import { DeleteAccountDialog } from './DeleteAccountDialog';
import { useDataExport } from './settings.queries';
import { SettingsSection } from './SettingsSection';
import { DownloadIcon, TrashIcon } from './settingsIcons';

function exportProblem(error: Error | null): string | null {
  if (error === null) return null;
  if (isApiError(error) && error.status === 429) return AccountErrors.exportTooOften;
  return error.message;
}

function downloadLabel(pending: boolean, progress: number | null): string {
  if (!pending) return 'Download your data';
  if (progress === null) return 'Preparing your data…';
  return `Downloading… ${String(Math.round(progress * 100))}%`;
}

/** Download a copy of everything (a zip), or delete the account for good. */
export function DataSection() {
  const exporter = useDataExport();
  const [deleting, setDeleting] = useState(false);
  const problem = exportProblem(exporter.error);
  const label = downloadLabel(exporter.isPending, exporter.progress);

  return (
    <SettingsSection
      title="Your data"
      description="Download a copy of your profile, posts, comments and more, or delete your account."
    >
      <div className="settings-data">
        <div className="settings-data__item">
          <div>
            <h3 className="settings-data__title">A copy of your data</h3>
            <p className="settings-note">A zip file with everything you have shared on Perch.</p>
          </div>
          <Button
            variant="secondary"
            loading={exporter.isPending}
            onClick={() => {
              exporter.mutate();
            }}
          >
            {!exporter.isPending && <DownloadIcon size={18} />}
            {label}
          </Button>
          <span className="visually-hidden" role="status">
            {exporter.isPending ? label : ''}
          </span>
          {problem !== null && (
            <p className="settings-form__error" role="alert">
              {problem}
            </p>
          )}
        </div>
        <div className="settings-data__item">
          <div>
            <h3 className="settings-data__title">Delete your account</h3>
            <p className="settings-note">
              Your profile, posts, comments, likes and bookmarks are removed for good.
            </p>
          </div>
          <Button
            variant="danger"
            onClick={() => {
              setDeleting(true);
            }}
          >
            <TrashIcon size={18} />
            Delete account
          </Button>
        </div>
      </div>
      {deleting && (
        <DeleteAccountDialog
          onClose={() => {
            setDeleting(false);
          }}
        />
      )}
    </SettingsSection>
  );
}
