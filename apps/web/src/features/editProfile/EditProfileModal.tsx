import {
  BIO_MAX,
  countCharacters,
  MEDIA_ACCEPTED_TYPES,
  MEDIA_MAX_BYTES,
  MediaMessages,
  type User,
} from '@perch/contract';
import { useEffect, useId, useRef, useState, type ChangeEvent, type SubmitEvent } from 'react';
import toast from 'react-hot-toast';
import { Avatar } from '../../shared/components/Avatar';
import { Button, buttonClassName } from '../../shared/components/Button';
import { Modal } from '../../shared/components/Modal';
import { TextField } from '../../shared/components/TextField';
import type { Schemas } from '../../shared/lib/schemas';
import { useWithSchemas } from '../../shared/hooks/useWithSchemas';
import './editProfile.css';
import { usersMessages } from '../../entities/member/messages';
import { useEditProfileMutation } from '../../entities/member/users.queries';

type FieldName = 'firstName' | 'lastName' | 'bio';
type FieldErrors = Partial<Record<FieldName, string>>;

const FIELD_ORDER: FieldName[] = ['firstName', 'lastName', 'bio'];
const ACCEPTED_TYPES: readonly string[] = MEDIA_ACCEPTED_TYPES;

interface PickedAvatar {
  file: File;
  /** Local address of the file, for the preview. */
  url: string;
}

interface EditProfileModalProps {
  user: User;
  onClose: () => void;
}

/** Checks a picked file before it is previewed; answers why it cannot be used, if it cannot. */
function avatarProblem(file: File): string | null {
  if (!ACCEPTED_TYPES.includes(file.type)) return MediaMessages.unsupportedType;
  if (file.size > MEDIA_MAX_BYTES) return MediaMessages.tooLarge;
  return null;
}

/**
 * 'Edit Profile': first and last name (required), bio and avatar. A picked avatar previews at
 * once and is uploaded on Update, with its progress shown. Mounted only while open, so each
 * opening starts from the member's current profile.
 */
export function EditProfileModal({ user, onClose }: EditProfileModalProps) {
  const formId = useId();
  const bioId = useId();
  const bioCountId = useId();
  const bioErrorId = useId();
  const fileErrorId = useId();
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName);
  const [bio, setBio] = useState(user.bio);
  const [avatar, setAvatar] = useState<PickedAvatar | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [progress, setProgress] = useState<number | null>(null);
  const controllerRef = useRef<AbortController | null>(null);
  const firstNameRef = useRef<HTMLInputElement>(null);
  const lastNameRef = useRef<HTMLInputElement>(null);
  const bioRef = useRef<HTMLTextAreaElement>(null);
  const editMutation = useEditProfileMutation();
  const withSchemas = useWithSchemas();
  const saving = editMutation.isPending;
  const bioLength = countCharacters(bio);

  // The preview's local address is released when replaced and when the form closes.
  useEffect(
    () => () => {
      if (avatar) URL.revokeObjectURL(avatar.url);
    },
    [avatar],
  );

  const close = () => {
    // Stops an avatar upload still on its way; a save already sent completes on its own.
    controllerRef.current?.abort();
    onClose();
  };

  const clearError = (name: FieldName) => {
    if (errors[name] === undefined) return;
    setErrors((current) => ({ ...current, [name]: undefined }));
  };

  const handleAvatarChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Lets the same file be picked again after a refusal.
    event.target.value = '';
    if (file === undefined) return;
    const problem = avatarProblem(file);
    setFileError(problem);
    if (problem !== null) return;
    setAvatar({ file, url: URL.createObjectURL(file) });
  };

  const save = (schemas: Schemas, controller: AbortController) => {
    const parsed = schemas.userEditBodySchema.safeParse({
      userData: { firstName, lastName, bio: bio.trim() },
    });
    if (!parsed.success) {
      const found: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[1];
        if (typeof field === 'string' && FIELD_ORDER.includes(field as FieldName)) {
          found[field as FieldName] ??= issue.message;
        }
      }
      setErrors(found);
      const first = FIELD_ORDER.find((name) => found[name] !== undefined);
      const firstRef = { firstName: firstNameRef, lastName: lastNameRef, bio: bioRef };
      if (first) firstRef[first].current?.focus();
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

  return (
    <Modal
      open
      onClose={close}
      title="Edit Profile"
      closeLabel="Close"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={saving}>
            Update
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="edit-profile"
        onSubmit={handleSubmit}
        noValidate
        aria-busy={saving}
      >
        <div className="edit-profile__avatar">
          <Avatar src={avatar?.url ?? user.avatarURL} size="xl" className="edit-profile__preview" />
          <div className="edit-profile__avatar-actions">
            <label
              className={buttonClassName({
                variant: 'secondary',
                size: 'sm',
                className: 'edit-profile__pick',
              })}
            >
              <input
                type="file"
                accept={MEDIA_ACCEPTED_TYPES.join(',')}
                className="visually-hidden"
                disabled={saving}
                aria-describedby={fileError ? fileErrorId : undefined}
                aria-invalid={fileError ? true : undefined}
                onChange={handleAvatarChange}
              />
              Change avatar
            </label>
            {progress !== null && (
              <progress
                className="edit-profile__progress"
                max={1}
                value={progress}
                aria-label="Avatar upload"
                aria-valuetext={`${String(Math.round(progress * 100))}%`}
              />
            )}
            {fileError && (
              <p id={fileErrorId} className="field__error" role="alert">
                {fileError}
              </p>
            )}
          </div>
        </div>

        <div className="edit-profile__names">
          <TextField
            ref={firstNameRef}
            label="First Name"
            name="firstName"
            autoComplete="given-name"
            aria-required="true"
            value={firstName}
            error={errors.firstName}
            onChange={(event) => {
              setFirstName(event.target.value);
              clearError('firstName');
            }}
          />
          <TextField
            ref={lastNameRef}
            label="Last Name"
            name="lastName"
            autoComplete="family-name"
            aria-required="true"
            value={lastName}
            error={errors.lastName}
            onChange={(event) => {
              setLastName(event.target.value);
              clearError('lastName');
            }}
          />
        </div>

        <div className="field">
          <div className="edit-profile__bio-label">
            <label htmlFor={bioId} className="field__label">
              Bio
            </label>
            <span
              id={bioCountId}
              className={['edit-profile__count', bioLength > BIO_MAX && 'edit-profile__count--over']
                .filter(Boolean)
                .join(' ')}
            >
              {bioLength}/{BIO_MAX}
            </span>
          </div>
          <textarea
            ref={bioRef}
            id={bioId}
            name="bio"
            rows={4}
            className="field__input edit-profile__bio"
            value={bio}
            aria-invalid={errors.bio ? true : undefined}
            aria-describedby={[bioCountId, errors.bio && bioErrorId].filter(Boolean).join(' ')}
            onChange={(event) => {
              setBio(event.target.value);
              clearError('bio');
            }}
          />
          {errors.bio && (
            <p id={bioErrorId} className="field__error">
              {errors.bio}
            </p>
          )}
        </div>
      </form>
    </Modal>
  );
}
