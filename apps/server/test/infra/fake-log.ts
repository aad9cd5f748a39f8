import type { FastifyBaseLogger } from 'fastify';
import { vi } from 'vitest';

/** A logger that records its calls, for tests that check what is reported and how often. */
export function fakeLog(): FastifyBaseLogger & {
  error: ReturnType<typeof vi.fn>;
  warn: ReturnType<typeof vi.fn>;
  info: ReturnType<typeof vi.fn>;
} {
  const log = {
    level: 'info',
    fatal: vi.fn(),
    error: vi.fn(),
    warn: vi.fn(),
    info: vi.fn(),
    debug: vi.fn(),
    trace: vi.fn(),
    silent: vi.fn(),
    child: () => log,
  };
  return log;
}
