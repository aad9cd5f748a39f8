import type * as ResponseSchemas from './responseSchemas';

export type Schemas = typeof ResponseSchemas;

let loading: Promise<Schemas> | null = null;

/**
 * The contract's schemas (and zod with them), fetched the first time something needs to validate.
 * A failed load is forgotten so that the next call tries again.
 */
export function loadSchemas(): Promise<Schemas> {
  // zod reads its settings from this global as the contract's schemas are defined, before any
  // code of ours in their chunk runs. jitless: the Content-Security-Policy forbids eval, and
  // zod's probe for it (new Function) would be reported as a violation on every start.
  const zodHost = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  zodHost.__zod_globalConfig ??= {};
  zodHost.__zod_globalConfig.jitless = true;
  loading ??= import('./responseSchemas').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
