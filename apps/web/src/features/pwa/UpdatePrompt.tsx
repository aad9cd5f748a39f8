import { useState } from 'react';
import { Button } from '../../shared/components/Button';
import './pwa.css';

export const UPDATE_PROMPT_TEXT = 'New version available';

export interface UpdatePromptProps {
  /** Activates the waiting version and reloads every tab of the app. */
  onReload: () => Promise<void>;
  onDismiss: () => void;
}

/** The toast a new build shows: the member reloads when it suits them, never mid-sentence. */
export function UpdatePrompt({ onReload, onDismiss }: UpdatePromptProps) {
  const [reloading, setReloading] = useState(false);
  return (
    <span className="update-prompt">
      <span>{UPDATE_PROMPT_TEXT}</span>
      <Button
        size="sm"
        loading={reloading}
        onClick={() => {
          setReloading(true);
          void onReload();
        }}
      >
        Reload
      </Button>
      <Button size="sm" variant="ghost" onClick={onDismiss}>
        Later
      </Button>
    </span>
  );
}
