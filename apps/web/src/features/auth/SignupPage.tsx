import { PASSWORD_MIN, PASSWORD_MISMATCH } from '@perch/contract';
import { useState, type SubmitEvent } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'react-router-dom';
import { Button } from '../../shared/components/Button';
import { AlertIcon } from '../../shared/components/icons';
import { TextField } from '../../shared/components/TextField';
import { isApiError } from '../../shared/lib/api';
import { useDocumentTitle } from '../../shared/hooks/useDocumentTitle';
import { useSignupMutation } from '../../entities/session/auth.queries';
import { AuthLayout } from './AuthLayout';

const EMPTY_FORM = {
  firstName: '',
  lastName: '',
  email: '',
  username: '',
  password: '',
  confirmPassword: '',
};

type SignupForm = typeof EMPTY_FORM;

export function SignupPage() {
  useDocumentTitle('Sign up');
  const [form, setForm] = useState<SignupForm>(EMPTY_FORM);
  const signupMutation = useSignupMutation();
  const loading = signupMutation.isPending;
  const serverMessages =
    signupMutation.error === null
      ? []
      : isApiError(signupMutation.error)
        ? signupMutation.error.messages
        : [signupMutation.error.message];

  const bind = (name: keyof SignupForm) => ({
    name,
    value: form[name],
    onChange: (event: { target: { value: string } }) => {
      const { value } = event.target;
      setForm((current) => ({ ...current, [name]: value }));
    },
  });

  const handleSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (loading) return;
    if (form.password !== form.confirmPassword) {
      signupMutation.reset();
      toast.error(PASSWORD_MISMATCH, { id: 'signup-password-mismatch' });
      return;
    }
    signupMutation.mutate({
      firstName: form.firstName.trim(),
      lastName: form.lastName.trim(),
      email: form.email.trim(),
      username: form.username.trim(),
      password: form.password,
      confirmPassword: form.confirmPassword,
    });
  };

  return (
    <AuthLayout
      title="Create your account"
      subtitle="Join Perch and start sharing with your flock."
      footer={
        <>
          Already have an account? <Link to="/login">Log in</Link>
        </>
      }
    >
      <form className="auth-form" onSubmit={handleSubmit} aria-busy={loading}>
        <div className="auth-form__row">
          <TextField label="First Name" autoComplete="given-name" required {...bind('firstName')} />
          <TextField label="Last Name" autoComplete="family-name" required {...bind('lastName')} />
        </div>
        <TextField label="Email" type="email" autoComplete="email" required {...bind('email')} />
        <TextField
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          hint="3 to 30 letters, digits or underscores."
          required
          {...bind('username')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${PASSWORD_MIN} characters.`}
          required
          {...bind('password')}
        />
        <TextField
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          required
          {...bind('confirmPassword')}
        />
        {serverMessages.length > 0 && (
          <div className="auth-form__alert" role="alert">
            <AlertIcon size={18} />
            <ul>
              {serverMessages.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          </div>
        )}
        <div className="auth-form__actions">
          <Button type="submit" size="lg" fullWidth loading={loading}>
            Signup
          </Button>
        </div>
      </form>
    </AuthLayout>
  );
}
