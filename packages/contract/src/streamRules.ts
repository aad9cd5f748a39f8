// Plain values only (no zod): clients import them without loading the schemas.

/**
 * Stream-only messages (not domain events):
 * - `ready`: sent first; its id is where the stream stands, for a later Last-Event-ID.
 * - `reset`: the events since Last-Event-ID are no longer kept (or too many): refetch everything.
 */
export const STREAM_READY = 'ready';
export const STREAM_RESET = 'reset';
