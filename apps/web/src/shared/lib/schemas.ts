import type * as ResponseSchemas from './responseSchemas';

export type Schemas = typeof ResponseSchemas;

let loading: Promise<Schemas> | null = null;

/**
 * The contract's schemas (and zod with them), fetched the first time something needs to validate.
 * A failed load is forgotten so that the next call tries again.
 */
export function loadSchemas(): Promise<Schemas> {
  loading ??= import('./responseSchemas').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
