import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { vi } from 'vitest';
import { Normaliser, type Json } from './normalise';

/** One recorded answer, normalised. */
export interface Entry {
  method: string;
  url: string;
  viewer: string;
  status: number;
  body: Json;
}

export interface Request {
  method?: 'GET' | 'POST' | 'DELETE';
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  /** Answers without the embedded arrays (`Prefer: return=minimal`). */
  minimal?: boolean;
  /** Sent, but kept out of the golden file (set-up steps whose answers others already show). */
  quiet?: boolean;
}

/**
 * The clock the app sees: fixed, and 100 ms later for every request. The whole scenario stays
 * within a minute of it, so that sessions' lastUsedAt (moved at most once a minute, on a read of
 * the session past a cache that expires in real time) never moves and cannot depend on how fast
 * the machine runs the test.
 */
export const CLOCK_START = Date.UTC(2026, 0, 15, 9, 0, 0);
const TICK_MS = 100;
const CLOCK_SPAN_MS = 60_000;

/** Records each answer as a named viewer sees it; the viewer's token is looked up by name. */
export class Recorder {
  readonly entries: Entry[] = [];
  readonly tokens = new Map<string, string>();
  readonly #normaliser = new Normaliser(CLOCK_START);
  #now = CLOCK_START;

  constructor(private readonly app: FastifyInstance) {}

  static startClock(): void {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(CLOCK_START);
  }

  #advance(ms: number): void {
    this.#now += ms;
    vi.setSystemTime(this.#now);
  }

  /**
   * Waits until what the request set off is done: after a write, its events' consumers
   * (notifications, home timelines); after a read of Home, the building of the member's timeline.
   * A refused write changed nothing. Nothing runs beside the next request, so every answer is
   * the same however fast the machine is.
   */
  async #settle(method: string, status: number): Promise<void> {
    if (method !== 'GET' && status < 400) await this.app.services.relay.drain();
    await this.app.services.timelines.idle();
  }

  async send(viewer: string, request: Request): Promise<LightMyRequestResponse> {
    this.#advance(TICK_MS);
    if (this.#now - CLOCK_START >= CLOCK_SPAN_MS)
      throw new Error('the scenario outgrew its minute');
    const token = this.tokens.get(viewer);
    const response = await this.app.inject({
      method: request.method ?? 'GET',
      url: request.url,
      ...(request.payload === undefined ? {} : { payload: request.payload as object }),
      headers: {
        ...request.headers,
        ...(token ? { authorization: token } : {}),
        ...(request.minimal ? { prefer: 'return=minimal' } : {}),
      },
    });
    await this.#settle(request.method ?? 'GET', response.statusCode);
    if (!request.quiet) this.record(viewer, request, response);
    return response;
  }

  /** Sends and answers the parsed JSON body (typed by the caller: the scenario knows the call). */
  async json<T>(viewer: string, request: Request): Promise<T> {
    const response = await this.send(viewer, request);
    if (response.statusCode >= 300) {
      throw new Error(`${request.url} as ${viewer}: ${response.statusCode} ${response.body}`);
    }
    return response.json<T>();
  }

  record(viewer: string, request: Request, response: LightMyRequestResponse): void {
    const method = request.method ?? 'GET';
    const suffix = request.minimal ? ' [minimal]' : '';
    this.entries.push({
      method,
      url: this.#normaliser.within(request.url).url(request.url) + suffix,
      viewer,
      status: response.statusCode,
      body: this.#body(response),
    });
  }

  #body(response: LightMyRequestResponse): Json {
    if (response.body === '') return null;
    const type = String(response.headers['content-type'] ?? '');
    if (!type.includes('json')) return { contentType: type, length: response.rawPayload.length };
    return this.#normaliser.value(response.json<Json>());
  }

  /** Adds an entry made by the scenario itself (e.g. the files of a downloaded archive). */
  recordValue(viewer: string, method: string, url: string, status: number, body: Json): void {
    this.entries.push({
      method,
      url: this.#normaliser.within(url).url(url),
      viewer,
      status,
      body: this.#normaliser.value(body),
    });
  }
}
