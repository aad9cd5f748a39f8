import { vi } from 'vitest';
import type { EventSourceLike } from '../features/live/liveConnection';

type Listener = (event: MessageEvent<string>) => void;

/**
 * Stands in for the browser's EventSource (jsdom has none): records every stream the app opens
 * and lets a test play the server's part.
 */
export class FakeEventSource implements EventSourceLike {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];

  readonly url: string;
  readyState: number = FakeEventSource.CONNECTING;
  onerror: ((event: Event) => void) | null = null;
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(url: string | URL) {
    this.url = String(url);
    FakeEventSource.instances.push(this);
  }

  /** The streams opened and not closed. */
  static get open(): FakeEventSource[] {
    return FakeEventSource.instances.filter(
      (source) => source.readyState !== FakeEventSource.CLOSED,
    );
  }

  /** The one stream open now (fails the test when there is none or several). */
  static current(): FakeEventSource {
    const [only, ...more] = FakeEventSource.open;
    if (!only || more.length > 0) {
      throw new Error(
        `Expected one open event stream, found ${String(FakeEventSource.open.length)}.`,
      );
    }
    return only;
  }

  addEventListener(type: string, listener: Listener): void {
    const listeners = this.listeners.get(type) ?? new Set<Listener>();
    listeners.add(listener);
    this.listeners.set(type, listeners);
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** Sends `event: type` with `data` as JSON (or as given when a string), as the server does. */
  emit(type: string, data: unknown = {}, id = ''): void {
    if (this.readyState === FakeEventSource.CLOSED) throw new Error('The stream is closed.');
    this.readyState = FakeEventSource.OPEN;
    const message = new MessageEvent<string>(type, {
      data: typeof data === 'string' ? data : JSON.stringify(data),
      lastEventId: id,
    });
    for (const listener of this.listeners.get(type) ?? []) listener(message);
  }

  /** The server refused the stream (e.g. 401): the browser gives up on it. */
  fail(): void {
    this.readyState = FakeEventSource.CLOSED;
    this.onerror?.(new Event('error'));
  }

  /** The connection dropped: the browser reconnects by itself. */
  drop(): void {
    this.readyState = FakeEventSource.CONNECTING;
    this.onerror?.(new Event('error'));
  }
}

/** Makes `EventSource` the fake for this test (setup.ts restores the globals afterwards). */
export function installFakeEventSource(): typeof FakeEventSource {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  return FakeEventSource;
}
