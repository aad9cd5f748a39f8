// Plain values only (no zod): clients import them without loading the schemas.

/**
 * Creating a post or a comment may carry an `Idempotency-Key` header (the web app's offline queue
 * sends one with every create): a retry with the same key, by the same member, within
 * IDEMPOTENCY_KEY_HOURS, answers the post or comment the first request created instead of a second
 * one, also when both arrive at once.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** 8 to 100 letters, digits, '-', '_', '.' or ':' (a UUID fits). */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,100}$/;

/** How long a key is remembered. */
export const IDEMPOTENCY_KEY_HOURS = 24;

export const IdempotencyErrors = {
  invalid: "Idempotency-Key must be 8 to 100 letters, digits, '-', '_', '.' or ':'.",
  reused: 'This Idempotency-Key was already used for another kind of request.',
} as const;
