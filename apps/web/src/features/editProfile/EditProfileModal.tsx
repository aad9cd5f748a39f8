import type { User } from '@perch/contract';
import { useId, useRef, useState, type SubmitEvent } from 'react';
import toast from 'react-hot-toast';
import { usersMessages } from '../../entities/member/messages';
import { useEditProfileMutation } from '../../entities/member/users.queries';
import { Button } from '../../shared/components/Button';
import { Modal } from '../../shared/components/Modal';
import { useWithSchemas } from '../../shared/hooks/useWithSchemas';
import type { Schemas } from '../../shared/lib/schemas';
import { AvatarPicker, usePickedAvatar } from './AvatarPicker';
import './editProfile.css';
import {
  BioField,
  NameFields,
  type FieldErrors,
  type FieldName,
  type FieldRefs,
  type ProfileValues,
} from './ProfileFields';

const FIELD_ORDER: FieldName[] = ['firstName', 'lastName', 'bio'];

interface EditProfileModalProps {
  user: User;
  onClose: () => void;
}

/** The first message of each field among the schema's issues (`userData.<field>`). */
function fieldErrorsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  const found: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path[1];
    if (typeof field === 'string' && FIELD_ORDER.includes(field as FieldName)) {
      found[field as FieldName] ??= issue.message;
    }
  }
  return found;
}

/** The form's values as the server takes them (the bio trimmed), checked by the schema. */
function parseProfile(schemas: Schemas, { firstName, lastName, bio }: ProfileValues) {
  return schemas.userEditBodySchema.safeParse({
    userData: { firstName, lastName, bio: bio.trim() },
  });
}

/** Moves the focus to the first field, in the form's order, that has an error. */
function focusFirstError(found: FieldErrors, inputs: FieldRefs): void {
  const first = FIELD_ORDER.find((name) => found[name] !== undefined);
  if (first) inputs[first].current?.focus();
}

function EditProfileFooter({
  formId,
  saving,
  onCancel,
}: {
  formId: string;
  saving: boolean;
  onCancel: () => void;
}) {
  return (
    <>
      <Button variant="secondary" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" form={formId} loading={saving}>
        Update
      </Button>
    </>
  );
}

/**
 * 'Edit Profile': first and last name (required), bio and avatar. A picked avatar previews at
 * once and is uploaded on Update, with its progress shown. Mounted only while open, so each
 * opening starts from the member's current profile.
 */
export function EditProfileModal({ user, onClose }: EditProfileModalProps) {
  const formId = useId();
  const [values, setValues] = useState<ProfileValues>({
    firstName: user.firstName,
    lastName: user.lastName,
    bio: user.bio,
  });
  const { avatar, fileError, pick } = usePickedAvatar();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [progress, setProgress] = useState<number | null>(null);
  const controllerRef = useRef<AbortController | null>(null);
  const firstNameRef = useRef<HTMLInputElement>(null);
  const lastNameRef = useRef<HTMLInputElement>(null);
  const bioRef = useRef<HTMLTextAreaElement>(null);
  const editMutation = useEditProfileMutation();
  const withSchemas = useWithSchemas();
  const saving = editMutation.isPending;

  const close = () => {
    // Stops an avatar upload still on its way; a save already sent completes on its own.
    controllerRef.current?.abort();
    onClose();
  };

  const change = (name: FieldName, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    if (errors[name] === undefined) return;
    setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const save = (schemas: Schemas, controller: AbortController) => {
    const parsed = parseProfile(schemas, values);
    if (!parsed.success) {
      const found = fieldErrorsOf(parsed.error.issues);
      setErrors(found);
      focusFirstError(found, { firstName: firstNameRef, lastName: lastNameRef, bio: bioRef });
      return;
    }
    setErrors({});

    setProgress(avatar ? 0 : null);
    editMutation.mutate(
      {
        userData: {
          ...parsed.data.userData,
          avatarURL: user.avatarURL,
          username: user.username,
        },
        avatarFile: avatar?.file ?? null,
        onUploadProgress: setProgress,
        signal: controller.signal,
      },
      {
        onSuccess: () => {
          onClose();
        },
        onSettled: () => {
          setProgress(null);
        },
      },
    );
  };

  const handleSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    // Closing the form while the schemas load cancels the save.
    const controller = new AbortController();
    const checking = withSchemas(
      (schemas) => {
        if (!controller.signal.aborted) save(schemas, controller);
      },
      () => {
        if (!controller.signal.aborted) toast.error(usersMessages.profileEditFailure);
      },
    );
    if (checking) controllerRef.current = controller;
  };

  const fields = { values, errors, onChange: change };
  return (
    <Modal
      open
      onClose={close}
      title="Edit Profile"
      closeLabel="Close"
      footer={<EditProfileFooter formId={formId} saving={saving} onCancel={close} />}
    >
      <form
        id={formId}
        className="edit-profile"
        onSubmit={handleSubmit}
        noValidate
        aria-busy={saving}
      >
        <AvatarPicker
          src={avatar?.url ?? user.avatarURL}
          fileError={fileError}
          progress={progress}
          saving={saving}
          onPick={pick}
        />
        <NameFields {...fields} firstNameRef={firstNameRef} lastNameRef={lastNameRef} />
        <BioField {...fields} bioRef={bioRef} />
      </form>
    </Modal>
  );
}
