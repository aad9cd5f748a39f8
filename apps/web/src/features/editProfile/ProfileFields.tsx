import { BIO_MAX, countCharacters } from '@perch/contract';
import { useId, type RefObject } from 'react';
import { TextField } from '../../shared/components/TextField';

export type FieldName = 'firstName' | 'lastName' | 'bio';
export type FieldErrors = Partial<Record<FieldName, string>>;
export type ProfileValues = Record<FieldName, string>;

export interface FieldRefs {
  firstName: RefObject<HTMLInputElement | null>;
  lastName: RefObject<HTMLInputElement | null>;
  bio: RefObject<HTMLTextAreaElement | null>;
}

interface ProfileFieldsProps {
  values: ProfileValues;
  errors: FieldErrors;
  onChange: (name: FieldName, value: string) => void;
}

/** First and last name, side by side on wider screens. */
export function NameFields({
  values,
  errors,
  onChange,
  firstNameRef,
  lastNameRef,
}: ProfileFieldsProps & {
  firstNameRef: FieldRefs['firstName'];
  lastNameRef: FieldRefs['lastName'];
}) {
  return (
    <div className="edit-profile__names">
      <TextField
        ref={firstNameRef}
        label="First Name"
        name="firstName"
        autoComplete="given-name"
        aria-required="true"
        value={values.firstName}
        error={errors.firstName}
        onChange={(event) => {
          onChange('firstName', event.target.value);
        }}
      />
      <TextField
        ref={lastNameRef}
        label="Last Name"
        name="lastName"
        autoComplete="family-name"
        aria-required="true"
        value={values.lastName}
        error={errors.lastName}
        onChange={(event) => {
          onChange('lastName', event.target.value);
        }}
      />
    </div>
  );
}

/** The bio, with how many characters it has of the most it may have. */
export function BioField({
  values,
  errors,
  onChange,
  bioRef,
}: ProfileFieldsProps & { bioRef: FieldRefs['bio'] }) {
  const bioId = useId();
  const bioCountId = useId();
  const bioErrorId = useId();
  const bioLength = countCharacters(values.bio);
  return (
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
        value={values.bio}
        aria-invalid={errors.bio ? true : undefined}
        aria-describedby={[bioCountId, errors.bio && bioErrorId].filter(Boolean).join(' ')}
        onChange={(event) => {
          onChange('bio', event.target.value);
        }}
      />
      {errors.bio && (
        <p id={bioErrorId} className="field__error">
          {errors.bio}
        </p>
      )}
    </div>
  );
}
