import { AccountErrors } from '@perch/contract';
import { useId, useRef, useState, type RefObject, type SubmitEvent } from 'react';
import { Button } from '../../shared/components/Button';
import { Modal } from '../../shared/components/Modal';
import { TextField } from '../../shared/components/TextField';
import { isApiError, NETWORK_ERROR_MESSAGE } from '../../shared/lib/api';
import type { Schemas } from '../../shared/lib/schemas';
import { useWithSchemas } from '../../shared/hooks/useWithSchemas';
import { useRequiredSession } from '../../entities/session/SessionProvider';
import { useDeleteAccount } from './settings.queries';

interface Errors {
  password?: string;
  username?: string;
  form?: string;
}

/** Whether `typed` names the member (any case, spaces around ignored), as the server checks. */
export function usernameMatches(typed: string, username: string): boolean {
  return typed.trim().toLowerCase() === username.toLowerCase();
}

interface DialogButtonsProps {
  formId: string;
  canDelete: boolean;
  deleting: boolean;
  onCancel: () => void;
}

function DialogButtons({ formId, canDelete, deleting, onCancel }: DialogButtonsProps) {
  return (
    <>
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" form={formId} variant="danger" disabled={!canDelete} loading={deleting}>
        Delete
      </Button>
    </>
  );
}

/** Puts the server's refusal under the field it names (and focuses it), else under the form. */
function showRefusal(
  error: Error,
  setErrors: (errors: Errors) => void,
  inputs: {
    password: RefObject<HTMLInputElement | null>;
    username: RefObject<HTMLInputElement | null>;
  },
): void {
  const message = error.message;
  if (isApiError(error) && message === AccountErrors.wrongPassword) {
    setErrors({ password: message });
    inputs.password.current?.focus();
  } else if (isApiError(error) && message === AccountErrors.wrongUsername) {
    setErrors({ username: message });
    inputs.username.current?.focus();
  } else {
    setErrors({ form: message });
  }
}

/**
 * Asks for the password and the username typed out before deleting the account; Delete stays
 * disabled until the username matches. On success the app signs out (see useDeleteAccount).
 */
export function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const { user } = useRequiredSession();
  const formId = useId();
  const [password, setPassword] = useState('');
  const [typed, setTyped] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const passwordRef = useRef<HTMLInputElement>(null);
  const usernameRef = useRef<HTMLInputElement>(null);
  const mutation = useDeleteAccount();
  const withSchemas = useWithSchemas();
  const matches = usernameMatches(typed, user.username);

  const send = (schemas: Schemas) => {
    const parsed = schemas.accountDeleteBodySchema.safeParse({ password, username: typed.trim() });
    if (!parsed.success) {
      setErrors({ password: parsed.error.issues[0]?.message });
      passwordRef.current?.focus();
      return;
    }
    setErrors({});
    mutation.mutate(parsed.data, {
      onError: (error) => {
        showRefusal(error, setErrors, { password: passwordRef, username: usernameRef });
      },
    });
  };

  const handleSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mutation.isPending || !matches) return;
    withSchemas(send, () => {
      setErrors({ form: NETWORK_ERROR_MESSAGE });
    });
  };

  return (
    <Modal
      open
      onClose={onClose}
      title="Delete account"
      size="sm"
      footer={
        <DialogButtons
          formId={formId}
          canDelete={matches}
          deleting={mutation.isPending}
          onCancel={onClose}
        />
      }
    >
      <form id={formId} className="settings-form" onSubmit={handleSubmit} noValidate>
        <p className="settings-warning">
          This permanently deletes your account, your posts, comments, likes and bookmarks. It
          cannot be undone.
        </p>
        <TextField
          ref={passwordRef}
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          aria-required="true"
          data-autofocus
          value={password}
          error={errors.password}
          onChange={(event) => {
            setPassword(event.target.value);
            setErrors((current) => ({ ...current, password: undefined, form: undefined }));
          }}
        />
        <TextField
          ref={usernameRef}
          label={
            <>
              Type your username <strong>{user.username}</strong> to confirm
            </>
          }
          name="confirm-username"
          autoComplete="off"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          aria-required="true"
          value={typed}
          error={errors.username}
          onChange={(event) => {
            setTyped(event.target.value);
            setErrors((current) => ({ ...current, username: undefined, form: undefined }));
          }}
        />
        {errors.form !== undefined && (
          <p className="settings-form__error" role="alert">
            {errors.form}
          </p>
        )}
      </form>
    </Modal>
  );
}
