import { loadSchemas, type Schemas } from './schemas';

/** Parses an untrusted response body into the expected shape, throwing when it does not fit. */
export interface ResponseSchema<T> {
  parse: (data: unknown) => T;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequestOptions<T> {
  method?: HttpMethod;
  /** Serialised as JSON. */
  body?: unknown;
  /** Sent in the `authorization` header; marks the call as authenticated. */
  token?: string | null;
  signal?: AbortSignal;
  /** Extra request headers; `prefer` defaults to `return=minimal`. */
  headers?: Record<string, string>;
  /**
   * Picks the schema that validates the success body (the schemas load on demand). Without it
   * the body is returned as is.
   */
  schema?: (schemas: Schemas) => ResponseSchema<T>;
  /** Lets the call finish after the page is gone (sent while the page hides). */
  keepalive?: boolean;
}

/** Status used for failures that never produced an HTTP response (offline, DNS, refused, aborted). */
export const NETWORK_ERROR_STATUS = 0;

export const NETWORK_ERROR_MESSAGE =
  'Could not reach the server. Check your connection and try again.';
export const UNEXPECTED_RESPONSE_MESSAGE = 'The server sent an unexpected response.';

export class ApiError extends Error {
  readonly status: number;
  readonly messages: readonly string[];

  constructor(status: number, messages: readonly string[], options?: { cause?: unknown }) {
    super(messages[0] ?? `Request failed with status ${status}`, options);
    this.name = 'ApiError';
    this.status = status;
    this.messages = messages;
  }

  get isNetworkError(): boolean {
    return this.status === NETWORK_ERROR_STATUS;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * The server's explanation when it refused a request as malformed (400), e.g. a search it
 * cannot run: an answer to show beside the input, not a failure to retry. Null otherwise.
 */
export function badRequestMessage(error: unknown): string | null {
  return isApiError(error) && error.status === 400 ? error.message : null;
}

type UnauthorizedListener = (token: string) => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/**
 * Subscribes to authenticated calls answered with 401, i.e. a token the server no longer
 * accepts. Receives the rejected token. Returns the unsubscribe function.
 */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => {
    unauthorizedListeners.delete(listener);
  };
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Tells the {@link onUnauthorized} listeners that the server refused `token`. For calls made
 * outside {@link apiRequest} (uploads).
 */
export function notifyUnauthorized(token: string): void {
  for (const listener of [...unauthorizedListeners]) listener(token);
}

/** The server's messages from an error body `{errors}`, or a generic one for any other body. */
export function errorMessages(status: number, statusText: string, body: unknown): string[] {
  // Checked by hand: an error must read without waiting for the schemas to load.
  const errors: unknown =
    typeof body === 'object' && body !== null && 'errors' in body ? body.errors : null;
  if (
    Array.isArray(errors) &&
    errors.length > 0 &&
    errors.every((message): message is string => typeof message === 'string')
  ) {
    return errors;
  }
  return [statusText === '' ? `Request failed with status ${status}` : statusText];
}

/**
 * Validates a success body with the schema `pick` chooses from `schemas`; rejects with an
 * {@link ApiError} when the body does not fit or the schemas could not be fetched.
 */
export async function parseResponse<T>(
  status: number,
  data: unknown,
  schemas: Promise<Schemas>,
  pick: (schemas: Schemas) => ResponseSchema<T>,
): Promise<T> {
  let loaded: Schemas;
  try {
    loaded = await schemas;
  } catch (cause) {
    throw new ApiError(NETWORK_ERROR_STATUS, [NETWORK_ERROR_MESSAGE], { cause });
  }
  try {
    return pick(loaded).parse(data);
  } catch (cause) {
    throw new ApiError(status, [UNEXPECTED_RESPONSE_MESSAGE], { cause });
  }
}

/**
 * Calls the Perch API. Resolves with the (validated) JSON body of a 2xx answer; rejects with
 * an {@link ApiError} for every other outcome, including network failures. There is no
 * default timeout: pass a `signal` to bound a call.
 */
export async function apiRequest<T = unknown>(
  path: string,
  options: ApiRequestOptions<T> = {},
): Promise<T> {
  const { method = 'GET', body, token, signal, schema, keepalive } = options;
  const headers = new Headers(options.headers);
  headers.set('accept', 'application/json');
  // The app keeps its own lists and pages through them, so it asks for answers without the
  // arrays the server embeds for the original API's clients (and mutations without a first page).
  if (!headers.has('prefer')) headers.set('prefer', 'return=minimal');
  if (body !== undefined) headers.set('content-type', 'application/json');
  if (token) headers.set('authorization', token);

  // Fetched beside the request, so that the first validation does not wait for a second round trip.
  const schemas = schema ? loadSchemas() : null;
  // Handled now: a request that fails before its answer never awaits it.
  schemas?.catch(() => undefined);

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      keepalive,
      credentials: 'same-origin',
    });
  } catch (cause) {
    throw new ApiError(NETWORK_ERROR_STATUS, [NETWORK_ERROR_MESSAGE], { cause });
  }

  let data: unknown;
  try {
    data = await readJson(response);
  } catch (cause) {
    throw new ApiError(NETWORK_ERROR_STATUS, [NETWORK_ERROR_MESSAGE], { cause });
  }

  if (!response.ok) {
    if (response.status === 401 && token) notifyUnauthorized(token);
    throw new ApiError(response.status, errorMessages(response.status, response.statusText, data));
  }

  if (!schema || !schemas) return data as T;
  return parseResponse(response.status, data, schemas, schema);
}
