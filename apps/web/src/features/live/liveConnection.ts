import { STREAM_READY, STREAM_RESET, type StreamReady } from '@perch/contract';
import { loadSchemas, type Schemas } from '../../shared/lib/schemas';
import {
  liveEventSchemasOf,
  type LiveEvent,
  type LiveEventSchemas,
  type LiveEventType,
} from '../../shared/live/liveEventTypes';

/** Where the member's event stream is; the session cookie authenticates it. */
export const LIVE_EVENTS_URL = '/api/events';

/** The part of the browser's EventSource the app uses (tests pass a fake one). */
export interface EventSourceLike {
  readonly readyState: number;
  onerror: ((event: Event) => void) | null;
  addEventListener: (type: string, listener: (event: MessageEvent<string>) => void) => void;
  close: () => void;
}

export type EventSourceFactory = (url: string) => EventSourceLike;

/** EventSource.CLOSED: the browser gave up on the stream and will not reconnect by itself. */
const CLOSED = 2;
/** Longest wait between attempts to reopen a stream the browser gave up on. */
const MAX_RETRY_DELAY_MS = 60_000;
const FIRST_RETRY_DELAY_MS = 1_000;

export interface LiveHandlers {
  /**
   * The stream is (again) open. `resync` is true when events may have been missed: a stream
   * the app reopened without knowing where the last one stopped.
   */
  onReady: (ready: StreamReady, info: { resync: boolean }) => void;
  /** Too much was missed: everything shown may be out of date. */
  onReset: () => void;
  onEvent: (event: LiveEvent) => void;
  /** Asks the server to set the session cookie again (the stream's only credential). */
  refreshCookie: () => Promise<void>;
}

export interface LiveConnectionOptions extends LiveHandlers {
  /** Defaults to the browser's EventSource; without one (old browsers, jsdom) nothing connects. */
  createSource?: EventSourceFactory;
}

export interface LiveConnection {
  close: () => void;
}

function browserEventSource(url: string): EventSourceLike | null {
  return typeof EventSource === 'undefined' ? null : new EventSource(url);
}

interface StreamSchemas {
  ready: Schemas['streamReadySchema'];
  events: LiveEventSchemas;
  types: LiveEventType[];
}

function streamSchemasOf(schemas: Schemas): StreamSchemas {
  const events = liveEventSchemasOf(schemas);
  return {
    ready: schemas.streamReadySchema,
    events,
    types: Object.keys(events) as LiveEventType[],
  };
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Opens the member's event stream and hands over its messages, checked against the contract
 * (the fields the app reads; anything else is ignored). The browser reconnects by itself after a dropped connection,
 * sending the last event id so the server replays what was missed. When it gives up (an answer
 * other than a stream, e.g. 401 without the session cookie), the cookie is asked for once and
 * the stream reopened from the last event id; after that, reopening waits longer each time (up
 * to a minute). The first stream opens once the contract's schemas have loaded (lib/schemas).
 */
export function connectLiveEvents({
  createSource,
  onReady,
  onReset,
  onEvent,
  refreshCookie,
}: LiveConnectionOptions): LiveConnection {
  const create = createSource ?? browserEventSource;
  let source: EventSourceLike | null = null;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let cookieRefreshed = false;
  let wasReady = false;
  let reopened = false;
  /** The id of the last message received, for a stream the app reopens itself. */
  let lastEventId = '';
  let schemas: StreamSchemas | null = null;

  const retryLater = () => {
    if (closed) return;
    const delay = Math.min(FIRST_RETRY_DELAY_MS * 2 ** (failures - 1), MAX_RETRY_DELAY_MS);
    timer = setTimeout(open, delay * (0.75 + Math.random() * 0.5));
  };

  const open = () => {
    if (closed) return;
    if (schemas === null) {
      loadSchemas().then(
        (loaded) => {
          schemas = streamSchemasOf(loaded);
          open();
        },
        () => {
          failures += 1;
          retryLater();
        },
      );
      return;
    }
    const { ready: readySchema, events: eventSchemas, types } = schemas;
    // The browser sends Last-Event-ID only across its own reconnections; a new stream says it
    // in the address so that the server still replays what was missed (or answers reset).
    const from = lastEventId;
    const current = create(
      from === '' ? LIVE_EVENTS_URL : `${LIVE_EVENTS_URL}?lastEventId=${from}`,
    );
    source = current;
    if (current === null) return;
    const isCurrent = (message: MessageEvent<string>) => {
      if (closed || source !== current) return false;
      if (/^\d+$/.test(message.lastEventId)) lastEventId = message.lastEventId;
      return true;
    };

    current.addEventListener(STREAM_READY, (message) => {
      if (!isCurrent(message)) return;
      const ready = readySchema.safeParse(parseJson(message.data));
      failures = 0;
      cookieRefreshed = false;
      const resync = reopened && wasReady && from === '';
      wasReady = true;
      reopened = false;
      onReady(ready.success ? ready.data : { unreadCount: 0 }, { resync });
    });
    current.addEventListener(STREAM_RESET, (message) => {
      if (isCurrent(message)) onReset();
    });
    for (const type of types) {
      current.addEventListener(type, (message) => {
        if (!isCurrent(message)) return;
        const payload = eventSchemas[type].safeParse(parseJson(message.data));
        if (payload.success) onEvent({ type, payload: payload.data } as LiveEvent);
      });
    }
    current.onerror = () => {
      if (closed || source !== current || current.readyState !== CLOSED) return; // it retries
      current.close();
      source = null;
      reopened = true;
      failures += 1;
      if (!cookieRefreshed) {
        cookieRefreshed = true;
        refreshCookie()
          .catch(() => undefined)
          .finally(open);
        return;
      }
      retryLater();
    };
  };

  open();

  return {
    close() {
      closed = true;
      clearTimeout(timer);
      source?.close();
      source = null;
    },
  };
}
