import { MEDIA_ACCEPTED_TYPES, MEDIA_MAX_BYTES, MediaMessages } from '@perch/contract';
import { useEffect, useId, useState, type ChangeEvent } from 'react';
import { Avatar } from '../../shared/components/Avatar';
import { buttonClassName } from '../../shared/components/Button';

const ACCEPTED_TYPES: readonly string[] = MEDIA_ACCEPTED_TYPES;

export interface PickedAvatar {
  file: File;
  /** Local address of the file, for the preview. */
  url: string;
}

/** Checks a picked file before it is previewed; answers why it cannot be used, if it cannot. */
function avatarProblem(file: File): string | null {
  if (!ACCEPTED_TYPES.includes(file.type)) return MediaMessages.unsupportedType;
  if (file.size > MEDIA_MAX_BYTES) return MediaMessages.tooLarge;
  return null;
}

/** The avatar the member picked (checked first), with why a refused file cannot be used. */
export function usePickedAvatar() {
  const [avatar, setAvatar] = useState<PickedAvatar | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);

  // The preview's local address is released when replaced and when the form closes.
  useEffect(
    () => () => {
      if (avatar) URL.revokeObjectURL(avatar.url);
    },
    [avatar],
  );

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Lets the same file be picked again after a refusal.
    event.target.value = '';
    if (file === undefined) return;
    const problem = avatarProblem(file);
    setFileError(problem);
    if (problem !== null) return;
    setAvatar({ file, url: URL.createObjectURL(file) });
  };

  return { avatar, fileError, pick };
}

interface AvatarPickerProps {
  /** The picked avatar's preview, or the current one. */
  src: string | null;
  fileError: string | null;
  /** The upload's progress from 0 to 1 while it runs. */
  progress: number | null;
  saving: boolean;
  onPick: (event: ChangeEvent<HTMLInputElement>) => void;
}

/** The avatar with its 'Change avatar' button, the upload's progress and a refused file's reason. */
export function AvatarPicker({ src, fileError, progress, saving, onPick }: AvatarPickerProps) {
  const fileErrorId = useId();
  return (
    <div className="edit-profile__avatar">
      <Avatar src={src} size="xl" className="edit-profile__preview" />
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
            onChange={onPick}
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
  );
}
