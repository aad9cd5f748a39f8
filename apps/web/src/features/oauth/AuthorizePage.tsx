import type { AuthorizationDecision, AuthorizationRequest } from '@perch/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router-dom';
import { useSession } from '../../entities/session/SessionProvider';
import { Button } from '../../shared/components/Button';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { AuthLayout, LoginPage } from '../auth';
import { decideAuthorization, describeAuthorization } from './oauth.api';
import './oauth.css';

/** What each scope lets an app do, as the member reads it. */
const SCOPE_WORDS: Record<string, string> = {
  read: 'Read your account, posts, follows and notifications',
  write: 'Post, reply, like and change your account for you',
  follow: 'Follow, block and mute people for you',
  profile: 'Know who you are (your profile)',
  push: 'Receive your notifications',
};

const describeScope = (scope: string) => SCOPE_WORDS[scope] ?? scope;

/** Sends the browser on; a function of its own so that tests can watch it. */
export const leavePage = {
  to: (url: string) => {
    window.location.assign(url);
  },
};

function requestOf(search: string): AuthorizationRequest {
  const params = Object.fromEntries(new URLSearchParams(search));
  return { ...params, client_id: params.client_id ?? '', redirect_uri: params.redirect_uri ?? '' };
}

function Consent({ search, token }: { search: string; token: string }) {
  const description = useQuery({
    queryKey: ['oauth', 'authorization', search],
    queryFn: ({ signal }) => describeAuthorization(search, signal),
    retry: false,
  });
  const decide = useMutation({
    mutationFn: (decision: AuthorizationDecision['decision']) =>
      decideAuthorization({ ...requestOf(search), decision }, token),
    onSuccess: (answer) => {
      if (answer.redirectUrl !== null) leavePage.to(answer.redirectUrl);
    },
  });

  if (description.isPending) return <p role="status">Loading the request…</p>;
  if (description.isError) {
    return (
      <p role="alert" className="oauth__problem">
        This authorization request cannot be shown: {description.error.message}
      </p>
    );
  }
  const { app, scopes } = description.data;
  const answer = decide.data;
  if (answer?.redirectUrl) return <p role="status">Taking you back to {app.name}…</p>;
  if (answer?.redirectUrl === null) {
    return answer.code === null ? (
      <p role="status">You denied {app.name} access to your account.</p>
    ) : (
      <div role="status" className="oauth__code">
        <p>Copy this code into {app.name}:</p>
        <code>{answer.code}</code>
      </div>
    );
  }
  return (
    <section className="oauth" aria-labelledby="oauth-app">
      <h2 id="oauth-app" className="oauth__app">
        {app.name}
      </h2>
      {app.website !== null && (
        <a className="oauth__website" href={app.website} rel="noreferrer noopener" target="_blank">
          {app.website}
        </a>
      )}
      <p>wants to use your account. It will be able to:</p>
      <ul className="oauth__scopes" aria-label="Permissions">
        {scopes.map((scope) => (
          <li key={scope}>
            <strong>{scope}</strong> — {describeScope(scope)}
          </li>
        ))}
      </ul>
      {decide.isError && <p role="alert">{decide.error.message}</p>}
      <div className="oauth__actions">
        <Button
          loading={decide.isPending && decide.variables === 'approve'}
          disabled={decide.isPending}
          onClick={() => {
            decide.mutate('approve');
          }}
        >
          Authorize
        </Button>
        <Button
          variant="secondary"
          loading={decide.isPending && decide.variables === 'deny'}
          disabled={decide.isPending}
          onClick={() => {
            decide.mutate('deny');
          }}
        >
          Deny
        </Button>
      </div>
    </section>
  );
}

/**
 * /oauth/authorize: an app asks the member to act for them (Mastodon's OAuth). Signed out, the
 * member logs in first and comes back here; signed in, they authorize or deny the app.
 */
export function AuthorizePage() {
  useDocumentTitle('Authorize an app');
  const location = useLocation();
  const { session } = useSession();
  if (session === null) return <LoginPage next={`${location.pathname}${location.search}`} />;
  return (
    <AuthLayout
      title="Authorize an app"
      subtitle={`Signed in as @${session.user.username}.`}
      footer="Apps you authorize are listed under Settings → Devices, where you can log them out."
    >
      <Consent search={location.search} token={session.token} />
    </AuthLayout>
  );
}
