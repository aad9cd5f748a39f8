import { AccountErrors, PASSWORD_MISMATCH, type PasswordChangeBody } from '@perch/contract';
import { useRef, useState, type SubmitEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../shared/components/Button';
import { TextField } from '../../shared/components/TextField';
import { isApiError, NETWORK_ERROR_MESSAGE } from '../../shared/lib/api';
import type { Schemas } from '../../shared/lib/schemas';
import { useWithSchemas } from '../../shared/hooks/useWithSchemas';
import { useRequiredSession } from '../../entities/session/SessionProvider';
import { settingsMessages, useChangePassword } from './settings.queries';
import { SettingsSection } from './SettingsSection';

type Field = keyof PasswordChangeBody;
type Values = Record<Field, string>;
type Errors = Partial<Record<Field | 'form', string>>;

const FIELDS: readonly Field[] = ['currentPassword', 'newPassword', 'confirmPassword'];
const EMPTY: Values = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Which field a message of the server's is about (the contract's wording); 'form' otherwise. */
export function fieldOfMessage(message: string): Field | 'form' {
  if (message === AccountErrors.wrongPassword || message.startsWith('Current password')) {
    return 'currentPassword';
  }
  if (message === PASSWORD_MISMATCH || message.startsWith('Confirm password')) {
    return 'confirmPassword';
  }
  if (
    message === AccountErrors.samePassword ||
    message.startsWith('Password must') ||
    message.startsWith('New password')
  ) {
    return 'newPassword';
  }
  return 'form';
}

function collect(messages: readonly string[], fields: readonly (Field | 'form')[]): Errors {
  const errors: Errors = {};
  messages.forEach((message, index) => {
    errors[fields[index] ?? 'form'] ??= message;
  });
  return errors;
}

/** The schema's issues as messages by field (those of no field go above the button). */
function errorsOfIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  return collect(
    issues.map((issue) => issue.message),
    issues.map((issue) => {
      const field = issue.path[0];
      return FIELDS.includes(field as Field) ? (field as Field) : 'form';
    }),
  );
}

/** Current, new and confirmed password; on success the other devices are signed out. */
export function PasswordSection() {
  const { user } = useRequiredSession();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const mutation = useChangePassword();
  const withSchemas = useWithSchemas();

  const showErrors = (found: Errors) => {
    setErrors(found);
    const first = FIELDS.find((field) => found[field] !== undefined);
    if (first) formRef.current?.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
  };

  const send = (schemas: Schemas) => {
    const parsed = schemas.passwordChangeBodySchema.safeParse(values);
    if (!parsed.success) {
      showErrors(errorsOfIssues(parsed.error.issues));
      return;
    }
    setErrors({});
    mutation.mutate(parsed.data, {
      onSuccess: () => {
        setValues(EMPTY);
        toast.success(settingsMessages.passwordChanged);
      },
      onError: (error) => {
        const messages = isApiError(error) ? error.messages : [String(error)];
        showErrors(collect(messages, messages.map(fieldOfMessage)));
      },
    });
  };

  const handleSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mutation.isPending) return;
    withSchemas(send, () => {
      showErrors({ form: NETWORK_ERROR_MESSAGE });
    });
  };

  const field = (name: Field) => ({
    name,
    type: 'password',
    value: values[name],
    error: errors[name],
    'aria-required': true,
    onChange: (event: { target: { value: string } }) => {
      const { value } = event.target;
      setValues((current) => ({ ...current, [name]: value }));
      if (errors[name] !== undefined || errors.form !== undefined) {
        setErrors((current) => ({ ...current, [name]: undefined, form: undefined }));
      }
    },
  });

  return (
    <SettingsSection
      title="Password"
      description="Changing your password signs you out on every other device."
    >
      <form
        ref={formRef}
        className="settings-form"
        onSubmit={handleSubmit}
        noValidate
        aria-busy={mutation.isPending}
      >
        {/* Lets password managers file the new password under the right account. */}
        <input
          type="text"
          name="username"
          autoComplete="username"
          value={user.username}
          readOnly
          hidden
        />
        <TextField
          label="Current password"
          autoComplete="current-password"
          {...field('currentPassword')}
        />
        <TextField label="New password" autoComplete="new-password" {...field('newPassword')} />
        <TextField
          label="Confirm new password"
          autoComplete="new-password"
          {...field('confirmPassword')}
        />
        {errors.form !== undefined && (
          <p className="settings-form__error" role="alert">
            {errors.form}
          </p>
        )}
        <div className="settings-actions">
          <Button type="submit" loading={mutation.isPending}>
            Change password
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}
