/**
 * Server-Sent Events over node:http for the benchmark: an incremental frame parser and a stream
 * that holds one keep-alive connection open, hands on each message with its arrival time, and can
 * drop to counting events when parsing them would load the benchmark more than the server.
 */
import http from 'node:http';
import { StringDecoder } from 'node:string_decoder';

export interface SseMessage {
  event: string;
  data: string;
  id: string | null;
}

/** A line this long without a newline is not an event stream. */
const MAX_PENDING_CHARS = 1024 * 1024;

/** Parses text/event-stream as it arrives (event, data and id fields; comments and retry skipped). */
export class SseParser {
  private pending = '';
  private event = '';
  private data: string[] = [];
  private id: string | null = null;

  constructor(private readonly onMessage: (message: SseMessage) => void) {}

  push(chunk: string): void {
    this.pending += chunk;
    let start = 0;
    for (let end = this.pending.indexOf('\n'); end >= 0; end = this.pending.indexOf('\n', start)) {
      const line = this.pending.slice(start, this.pending[end - 1] === '\r' ? end - 1 : end);
      start = end + 1;
      this.line(line);
    }
    this.pending = this.pending.slice(start);
    if (this.pending.length > MAX_PENDING_CHARS) {
      throw new Error(`an SSE line grew past ${MAX_PENDING_CHARS} characters`);
    }
  }

  private line(line: string): void {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const raw = colon < 0 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id') this.id = value;
  }

  private dispatch(): void {
    if (this.data.length > 0) {
      this.onMessage({ event: this.event || 'message', data: this.data.join('\n'), id: this.id });
    }
    this.event = '';
    this.data = [];
  }
}

/**
 * Counts events of a stream without decoding them. Each event the server sends has an `id:` line
 * before its `event:` line, so `\nevent: <prefix>` marks one of the types starting with `prefix`
 * (comments such as heartbeats never match).
 */
export class EventCounter {
  events = 0;
  bytes = 0;
  private readonly mark: Buffer;
  private tail = Buffer.alloc(0);

  constructor(typePrefix: string) {
    this.mark = Buffer.from(`\nevent: ${typePrefix}`);
  }

  push(chunk: Buffer): void {
    const mark = this.mark;
    this.bytes += chunk.length;
    // A mark split between the previous chunk and this one.
    if (this.tail.length > 0) {
      const seam = Buffer.concat([this.tail, chunk.subarray(0, mark.length - 1)]);
      if (seam.includes(mark)) this.events++;
    }
    for (let at = chunk.indexOf(mark); at >= 0; at = chunk.indexOf(mark, at + mark.length)) {
      this.events++;
    }
    this.tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - (mark.length - 1))));
  }
}

export interface SseStream {
  /** Resolves on the first `ready` message; rejects on a failed request, another status or timeout. */
  ready: Promise<void>;
  /** From now on only counts the events whose type starts with `typePrefix` (nothing is parsed). */
  countOnly: (typePrefix: string) => EventCounter;
  /** Why the stream ended before close() was called, if it did. */
  endedEarly: () => string | null;
  close: () => void;
}

export interface SseStreamOptions {
  url: string;
  path: string;
  headers: Record<string, string>;
  agent: http.Agent;
  readyTimeoutMs: number;
  /** Each message, with performance.now() when its chunk arrived. */
  onMessage: (message: SseMessage, arrivedAt: number) => void;
}

/** Opens GET `path` as an event stream on its own keep-alive connection of `agent`. */
export function openSseStream(options: SseStreamOptions): SseStream {
  const state = {
    closing: false,
    endedEarly: null as string | null,
    counter: null as null | EventCounter,
  };
  let settleReady: (error?: Error) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    settleReady = (error) => {
      settleReady = () => undefined;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve();
    };
  });
  const timer = setTimeout(() => {
    settleReady(new Error(`no ready event within ${options.readyTimeoutMs} ms`));
    request.destroy();
  }, options.readyTimeoutMs);
  const ended = (reason: string) => {
    if (!state.closing) state.endedEarly ??= reason;
    settleReady(new Error(`the stream ended before ready: ${reason}`));
  };
  const parser = new SseParser((message) => {
    if (message.event === 'ready') settleReady();
    options.onMessage(message, arrivedAt);
  });
  let arrivedAt = 0;
  const decoder = new StringDecoder('utf8');

  const request = http.get(
    new URL(options.path, options.url),
    { agent: options.agent, headers: { accept: 'text/event-stream', ...options.headers } },
    (response) => {
      if (response.statusCode !== 200) {
        ended(`status ${String(response.statusCode)}`);
        response.resume();
        return;
      }
      response.on('data', (chunk: Buffer) => {
        arrivedAt = performance.now();
        if (state.counter) state.counter.push(chunk);
        else parser.push(decoder.write(chunk));
      });
      response.on('end', () => {
        ended('the server ended it');
      });
      response.on('error', (error) => {
        ended(error.message);
      });
      response.on('close', () => {
        ended('the connection closed');
      });
    },
  );
  request.on('error', (error) => {
    ended(error.message);
  });

  return {
    ready,
    countOnly: (typePrefix) => (state.counter ??= new EventCounter(typePrefix)),
    endedEarly: () => state.endedEarly,
    close: () => {
      state.closing = true;
      clearTimeout(timer);
      request.destroy();
    },
  };
}
