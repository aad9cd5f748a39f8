import { useId } from 'react';

interface SettingSwitchProps {
  label: string;
  checked: boolean;
  hint: string;
  onChange: (checked: boolean) => void;
}

/** One setting as a labelled switch, its hint read with it. */
export function SettingSwitch({ label, checked, hint, onChange }: SettingSwitchProps) {
  const id = useId();
  return (
    <div className="privacy-option">
      <input
        id={`${id}-input`}
        className="privacy-option__switch"
        type="checkbox"
        role="switch"
        checked={checked}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          onChange(event.target.checked);
        }}
      />
      <div className="privacy-option__text">
        <label htmlFor={`${id}-input`} className="privacy-option__label">
          {label}
        </label>
        <p id={`${id}-hint`} className="settings-note">
          {hint}
        </p>
      </div>
    </div>
  );
}
