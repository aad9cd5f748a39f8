import { useCallback, useState } from 'react';

/**
 * The values switches were just turned to, shown until their saves settle. A controlled checkbox
 * is put back at once to what it is given, and the saved value reaches the page only after the
 * save starts, so without this the switch would spring back for a moment under the finger.
 */
export function useSwitchDrafts<Key extends string>() {
  const [drafts, setDrafts] = useState<Partial<Record<Key, boolean>>>({});
  const shown = useCallback((key: Key, saved: boolean) => drafts[key] ?? saved, [drafts]);
  const start = useCallback((key: Key, value: boolean) => {
    setDrafts((now) => ({ ...now, [key]: value }));
  }, []);
  const settle = useCallback((key: Key) => {
    setDrafts((now) => ({ ...now, [key]: undefined }));
  }, []);
  return { shown, start, settle };
}
