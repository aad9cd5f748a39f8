/**
 * OAuth scopes as Mastodon's client API names them: the top-level ones and the granular ones they
 * stand for. `follow` is Mastodon's older name for the relationship scopes.
 */
export const GRANULAR_SCOPES = [
  'read:accounts',
  'read:blocks',
  'read:bookmarks',
  'read:favourites',
  'read:filters',
  'read:follows',
  'read:lists',
  'read:mutes',
  'read:notifications',
  'read:search',
  'read:statuses',
  'write:accounts',
  'write:blocks',
  'write:bookmarks',
  'write:conversations',
  'write:favourites',
  'write:filters',
  'write:follows',
  'write:lists',
  'write:media',
  'write:mutes',
  'write:notifications',
  'write:reports',
  'write:statuses',
] as const;

export const TOP_SCOPES = ['read', 'write', 'follow', 'push', 'profile'] as const;

export type Scope = (typeof TOP_SCOPES)[number] | (typeof GRANULAR_SCOPES)[number];

const ALL: ReadonlySet<string> = new Set<string>([...TOP_SCOPES, ...GRANULAR_SCOPES]);

const FOLLOW_COVERS: ReadonlySet<string> = new Set([
  'read:blocks',
  'write:blocks',
  'read:follows',
  'write:follows',
  'read:mutes',
  'write:mutes',
]);

export const isScope = (value: string): value is Scope => ALL.has(value);

/** A space-separated scope string as OAuth sends it, or null when it names an unknown scope. */
export function parseScopes(value: string | undefined, fallback: readonly Scope[] = ['read']) {
  const names = (value ?? '').split(/[\s+]+/).filter((name) => name.length > 0);
  if (names.length === 0) return [...fallback];
  if (!names.every(isScope)) return null;
  return [...new Set(names)];
}

/**
 * Whether `granted` allows a method that needs `needed`: the scope itself, its top-level scope
 * (`read` allows `read:statuses`), or `follow` for the relationship scopes. `profile` allows only
 * itself (verify_credentials); `read:accounts` allows it too.
 */
export function allows(granted: readonly string[], needed: Scope): boolean {
  if (granted.includes(needed)) return true;
  const top = needed.split(':')[0] ?? needed;
  if (top !== needed && granted.includes(top)) return true;
  if (FOLLOW_COVERS.has(needed) && granted.includes('follow')) return true;
  if (needed === 'profile') return granted.includes('read') || granted.includes('read:accounts');
  return false;
}
