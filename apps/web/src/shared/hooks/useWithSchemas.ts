import { useCallback, useRef } from 'react';
import { loadSchemas, type Schemas } from '../lib/schemas';

/**
 * For forms that check their fields with the contract's schemas: `withSchemas(use, unavailable)`
 * calls `use` once the schemas have loaded, or `unavailable` when they could not be fetched.
 * A call made while an earlier one still waits is ignored (answers false), so a double submit
 * checks once.
 */
export function useWithSchemas() {
  const waitingRef = useRef(false);
  return useCallback((use: (schemas: Schemas) => void, unavailable: () => void): boolean => {
    if (waitingRef.current) return false;
    waitingRef.current = true;
    void loadSchemas()
      .finally(() => {
        waitingRef.current = false;
      })
      .then(use, unavailable);
    return true;
  }, []);
}
