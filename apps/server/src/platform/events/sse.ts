import type { ServerResponse } from 'node:http';
import type { PublishedEvent } from '@perch/contract';

export interface SseMessage {
  id?: number;
  event: string;
  data: unknown;
}

/** One message as it goes on the wire. */
export const formatSse = ({ id, event, data }: SseMessage): string =>
  `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

// An event going to many streams is encoded once.
const frames = new WeakMap<PublishedEvent, string>();

/** An event as it goes on the wire, encoded once however many streams it goes to. */
export function frameOf(event: PublishedEvent): string {
  let frame = frames.get(event);
  if (frame === undefined) {
    frame = formatSse({ id: event.id, event: event.type, data: event.payload });
    frames.set(event, frame);
  }
  return frame;
}

/** Writes Server-Sent Events to one response, bounded: a client that stops reading is let go. */
export interface SseWriter {
  /** Sends one message; false when the stream is closed (or was closed now for being too slow). */
  send: (message: SseMessage) => boolean;
  /** Sends one message already formatted with formatSse (frameOf), with the others of its burst. */
  sendFrame: (frame: string) => boolean;
  /** Sends messages already formatted, in one write: bytes shared by many streams. */
  sendFrames: (frames: Uint8Array) => boolean;
  close: () => void;
  closed: () => boolean;
  onClose: (listener: () => void) => void;
}

export interface SseOptions {
  heartbeatMs: number;
  /** Bytes a client may leave unread before its stream is closed; it reconnects and replays. */
  maxBufferedBytes: number;
  /** How long a browser waits before reconnecting. */
  retryMs: number;
}

export function openSse(response: ServerResponse, options: SseOptions): SseWriter {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store, no-transform',
    connection: 'keep-alive',
    // nginx and some other proxies buffer answers unless told not to.
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
  });
  let isClosed = false;
  const listeners: (() => void)[] = [];

  const close = () => {
    if (isClosed) return;
    isClosed = true;
    clearInterval(heartbeat);
    response.end();
    for (const listener of listeners.splice(0)) listener();
  };
  response.on('close', close);
  response.on('error', close);

  let corked = false;
  const uncork = () => {
    corked = false;
    response.uncork();
  };
  const write = (chunk: string | Uint8Array, burst: boolean): boolean => {
    if (isClosed) return false;
    // Messages of one burst leave in one write instead of one each.
    if (burst && !corked) {
      corked = true;
      response.cork();
      process.nextTick(uncork);
    }
    response.write(chunk);
    if (response.writableLength > options.maxBufferedBytes) {
      close();
      return false;
    }
    return true;
  };

  // A comment line: keeps proxies from closing an idle stream and finds dead connections.
  const heartbeat = setInterval(() => write(': ping\n\n', false), options.heartbeatMs);
  heartbeat.unref();
  write(`retry: ${options.retryMs}\n\n`, true);

  return {
    send: (message) => write(formatSse(message), true),
    sendFrame: (frame) => write(frame, true),
    sendFrames: (frames) => write(frames, false),
    close,
    closed: () => isClosed,
    onClose: (listener) => {
      if (isClosed) listener();
      else listeners.push(listener);
    },
  };
}
