import { GUEST_CREDENTIALS } from '@perch/contract';
import { useState, type SubmitEvent } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router-dom';
import { Button } from '../../shared/components/Button';
import { TextField } from '../../shared/components/TextField';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { authMessages, useLoginMutation } from '../../entities/session/auth.queries';
import { AuthLayout } from './AuthLayout';

type Pending = 'login' | 'guest' | null;

/** Perch's login; `next` is where a member goes once signed in (home by default). */
export function LoginPage({ next }: { next?: string } = {}) {
  useDocumentTitle('Log in');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState<Pending>(null);
  const loginMutation = useLoginMutation(next);
  const loading = loginMutation.isPending;

  const submit = (credentials: { username: string; password: string }, kind: Pending) => {
    setPending(kind);
    loginMutation.mutate(credentials);
  };

  const handleSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loading) return;
    if (username.trim() === '' || password === '') {
      toast.error(authMessages.emptyLoginFields, { id: 'login-empty-fields' });
      return;
    }
    submit({ username: username.trim(), password }, 'login');
  };

  const handleGuestLogin = () => {
    if (loading) return;
    setUsername(GUEST_CREDENTIALS.username);
    setPassword(GUEST_CREDENTIALS.password);
    submit({ ...GUEST_CREDENTIALS }, 'guest');
  };

  return (
    <AuthLayout
      title="Welcome back"
      subtitle="Log in to catch up with the people you follow."
      footer={
        <>
          Don&apos;t have an account? <Link to="/signup">Create one</Link>
        </>
      }
    >
      <form className="auth-form" onSubmit={handleSubmit} noValidate aria-busy={loading}>
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          aria-required="true"
          value={username}
          onChange={(event) => {
            setUsername(event.target.value);
          }}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          aria-required="true"
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
          }}
        />
        <div className="auth-form__actions">
          <Button
            type="submit"
            size="lg"
            fullWidth
            loading={loading && pending === 'login'}
            disabled={loading}
          >
            Login
          </Button>
          <Button
            variant="secondary"
            size="lg"
            fullWidth
            loading={loading && pending === 'guest'}
            disabled={loading}
            onClick={handleGuestLogin}
          >
            Login as guest
          </Button>
        </div>
      </form>
    </AuthLayout>
  );
}
