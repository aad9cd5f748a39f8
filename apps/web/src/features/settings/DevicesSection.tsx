import type { Session } from '@perch/contract';
import { useRef } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../shared/components/Button';
import { LoadProblem } from './LoadProblem';
import { formatFullDate, formatRelativeTime } from '../../shared/lib/relativeTime';
import {
  settingsMessages,
  useLogoutOtherSessions,
  useRevokeSession,
  useSessionsQuery,
} from './settings.queries';
import { SettingsSection } from './SettingsSection';
import { LaptopIcon, PhoneIcon } from './settingsIcons';
import { describeUserAgent } from './userAgent';

const PHONE_SYSTEMS = / on (?:iOS|Android)$/;

function When({ value }: { value: string }) {
  return (
    <time dateTime={value} title={formatFullDate(value)}>
      {formatRelativeTime(value)}
    </time>
  );
}

function failed(error: Error) {
  toast.error(error.message);
}

function DeviceRow({ session, onRevoked }: { session: Session; onRevoked: () => void }) {
  const revoke = useRevokeSession(() => {
    toast.success(settingsMessages.deviceLoggedOut);
    onRevoked();
  });
  // An app the member authorized goes by its own name (its user agent is its HTTP library's).
  const name = session.appName ?? describeUserAgent(session.userAgent);
  const DeviceIcon = PHONE_SYSTEMS.test(name) ? PhoneIcon : LaptopIcon;

  return (
    <li className="device" data-testid="device">
      <span className="device__icon">
        <DeviceIcon size={22} />
      </span>
      <div className="device__body">
        <p className="device__name">
          {name}
          {session.current && <span className="device__badge">This device</span>}
        </p>
        <p className="device__meta">
          Signed in <When value={session.createdAt} /> · Last active{' '}
          <When value={session.lastUsedAt} />
        </p>
      </div>
      {!session.current && (
        <Button
          variant="secondary"
          size="sm"
          className="device__action"
          aria-label={`Log out of ${name}`}
          loading={revoke.isPending}
          onClick={() => {
            revoke.mutate(session._id, { onError: failed });
          }}
        >
          Log out
        </Button>
      )}
    </li>
  );
}

/** The member's signed-in devices, each but this one with Log out, and Log out of all others. */
export function DevicesSection() {
  const query = useSessionsQuery();
  const logoutOthers = useLogoutOtherSessions();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusHeading = () => {
    headingRef.current?.focus();
  };

  let content;
  if (query.data === undefined && query.isError) {
    content = (
      <LoadProblem
        message={'Your devices could not be loaded.'}
        retrying={query.isFetching}
        onRetry={() => {
          void query.refetch();
        }}
      />
    );
  } else if (query.data === undefined) {
    content = (
      <p className="settings-note" role="status">
        Loading your devices…
      </p>
    );
  } else if (query.data.sessions.length === 0) {
    content = <p className="settings-note">No devices are signed in.</p>;
  } else {
    const sessions = [...query.data.sessions].sort((a, b) => Number(b.current) - Number(a.current));
    const others = sessions.filter((session) => !session.current).length;
    content = (
      <>
        <ul className="devices" aria-label="Signed-in devices">
          {sessions.map((session) => (
            <DeviceRow key={session._id} session={session} onRevoked={focusHeading} />
          ))}
        </ul>
        {others === 0 ? (
          <p className="settings-note">You are not signed in on any other device.</p>
        ) : (
          <div className="settings-actions">
            <Button
              variant="secondary"
              loading={logoutOthers.isPending}
              onClick={() => {
                logoutOthers.mutate(undefined, {
                  onSuccess: () => {
                    toast.success(settingsMessages.otherDevicesLoggedOut);
                    focusHeading();
                  },
                  onError: failed,
                });
              }}
            >
              Log out of all other devices
            </Button>
          </div>
        )}
      </>
    );
  }

  return (
    <SettingsSection
      title="Devices"
      description="Where you are signed in. Log out of any device you do not recognise."
      headingRef={headingRef}
    >
      {content}
    </SettingsSection>
  );
}
