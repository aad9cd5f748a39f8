import { z } from 'zod';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN, IdempotencyErrors } from './idempotencyRules';

/** The header as the create routes read it. */
export const idempotencyHeadersSchema = z.object({
  [IDEMPOTENCY_HEADER]: z
    .string({ error: IdempotencyErrors.invalid })
    .regex(IDEMPOTENCY_KEY_PATTERN, IdempotencyErrors.invalid)
    .optional(),
});
