// Plain values only (no zod): clients import them without loading the schemas.

export const PASSWORD_MISMATCH = 'Your password and confirmation password do not match.';

/** The built-in demo account behind 'Login as guest'. */
export const GUEST_CREDENTIALS = { username: 'guest', password: 'perch-guest-2026' } as const;
