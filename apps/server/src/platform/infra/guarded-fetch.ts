import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector, request } from 'undici';
import serverPackage from '../../../package.json';

/**
 * Every request Perch makes to a URL someone else named (link previews, later federation) goes
 * through here, so that such a URL cannot reach the server's own network (SSRF).
 */

export type FetchFailureReason =
  | 'refused-address'
  | 'too-many-redirects'
  | 'too-large'
  | 'timeout'
  | 'bad-url'
  | 'http-status'
  | 'network';

export class FetchError extends Error {
  override readonly name = 'FetchError';
  constructor(
    readonly reason: FetchFailureReason,
    message: string,
    /** The answer's status, for 'http-status'. */
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Resolves a host name to every address it has (dns.lookup with `all`, by default). */
export type HostLookup = (hostname: string) => Promise<LookupAddress[]>;

export interface GuardedFetchOptions {
  /** This server's public origin, named in the User-Agent so that site owners can reach us. */
  publicOrigin: string;
  /** Most bytes of body read (default 1 MiB); past it the fetch fails with 'too-large'. */
  maxBytes?: number;
  /** Budget for the whole fetch: connecting, redirects, headers and body (default 5 s). */
  timeoutMs?: number;
  /** Redirects followed (default 3). */
  maxRedirects?: number;
  /** Lets loopback, private and other non-public addresses through: tests only. */
  allowPrivate?: boolean;
  /** Replaces DNS resolution (tests). */
  lookup?: HostLookup;
}

export interface FetchRequest {
  /** The Accept header, e.g. 'text/html' or 'application/activity+json'. */
  accept: string;
  /** Cancels the fetch early (e.g. on shutdown); the time budget applies regardless. */
  signal?: AbortSignal;
}

export interface FetchedResponse {
  status: number;
  /** The URL after redirects. */
  url: string;
  /** The Content-Type header, or null. */
  contentType: string | null;
  headers: Record<string, string>;
  body: Buffer;
  /** The body decoded with the charset the Content-Type names (UTF-8 otherwise). */
  text(): string;
}

export type GuardedFetch = (url: string, init: FetchRequest) => Promise<FetchedResponse>;

const DEFAULT_MAX_BYTES = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

export const userAgent = (publicOrigin: string): string =>
  `Perch/${serverPackage.version} (+${publicOrigin})`;

/**
 * Whether an address is one the public internet routes to: IPv4 outside every special range
 * (loopback, RFC 1918, link-local, CGNAT, multicast, documentation…), IPv6 in global unicast
 * 2000::/3 outside its special ranges; IPv4-mapped IPv6 is judged as the IPv4 it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  return parsed.range() === 'unicast' && parsed.match(GLOBAL_UNICAST_V6);
}

/** The host of a URL without IPv6 brackets. */
const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Checks a URL before any connection: http(s) only, no credentials, and a literal IP address in it
 * must be public. Host names are checked later, on the addresses the connection resolves.
 */
export function checkFetchUrl(raw: string, allowPrivate = false, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch (error) {
    throw new FetchError('bad-url', 'the URL cannot be parsed', undefined, { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchError('bad-url', `${url.protocol} URLs are not fetched`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new FetchError('bad-url', 'URLs with credentials are not fetched');
  }
  if (url.hostname === '') throw new FetchError('bad-url', 'the URL has no host');
  const host = bareHost(url);
  if (!allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
    throw new FetchError('refused-address', `${host} is not a public address`);
  }
  return url;
}

const refused = (host: string, address: string) =>
  new FetchError('refused-address', `${host} resolves to ${address}, not a public address`);

/**
 * net.connect's `lookup`: resolves the host and refuses it if any of its addresses is not public,
 * so the address connected to is always one that was checked (no DNS rebinding in between).
 */
function checkedLookup(resolve: HostLookup, allowPrivate: boolean): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    resolve(hostname).then(
      (found) => {
        const family =
          options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const wanted = found.filter((a) => !family || a.family === family);
        const bad = allowPrivate ? undefined : wanted.find((a) => !isPublicAddress(a.address));
        if (bad) {
          callback(refused(hostname, bad.address), []);
          return;
        }
        const first = wanted[0];
        if (!first) {
          callback(new FetchError('network', `${hostname} has no address`), []);
          return;
        }
        if (options.all) {
          callback(null, wanted);
          return;
        }
        callback(null, first.address, first.family);
      },
      (error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), []);
      },
    );
  };
}

/** A connector that checks literal addresses before connecting and the peer after. */
function guardedConnector(
  resolve: HostLookup,
  allowPrivate: boolean,
  timeoutMs: number,
): buildConnector.connector {
  const connect = buildConnector({
    lookup: checkedLookup(resolve, allowPrivate),
    timeout: timeoutMs,
  });
  return (options, callback) => {
    if (!allowPrivate && isIP(options.hostname) !== 0 && !isPublicAddress(options.hostname)) {
      callback(refused(options.hostname, options.hostname), null);
      return;
    }
    connect(options, (...result) => {
      const [error, socket] = result;
      if (error) {
        callback(error, null);
        return;
      }
      const peer = socket.remoteAddress;
      if (!allowPrivate && (peer === undefined || !isPublicAddress(peer))) {
        socket.destroy();
        callback(refused(options.hostname, peer ?? 'no address'), null);
        return;
      }
      callback(null, socket);
    });
  };
}

const defaultLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** Flattens undici's header values into single strings. */
function flatHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** Decodes with the charset the Content-Type names, when it is one TextDecoder knows. */
export function decodeBody(body: Buffer, contentType: string | null): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

type Body = AsyncIterable<Buffer> & Pick<Readable, 'destroy' | 'on'>;

/** Closes a body not wanted (any more), without the abort surfacing as an unhandled error. */
function discard(body: Body): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** Reads at most `maxBytes`, closing the connection as soon as the body is known to be larger. */
async function readLimited(body: Body, declared: string | undefined, maxBytes: number) {
  const tooLarge = () => new FetchError('too-large', `the body is larger than ${maxBytes} bytes`);
  if (declared !== undefined && Number(declared) > maxBytes) {
    discard(body);
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      discard(body);
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Turns whatever a fetch threw into a FetchError. */
function asFetchError(error: unknown, timedOut: boolean): FetchError {
  if (error instanceof FetchError) return error;
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof FetchError) return cause;
  if (timedOut)
    return new FetchError('timeout', 'the fetch took too long', undefined, { cause: error });
  const message = error instanceof Error ? error.message : String(error);
  return new FetchError('network', `the fetch failed: ${message}`, undefined, { cause: error });
}

/**
 * Builds the fetch every outgoing request uses: GET only, redirects followed by hand (each hop
 * checked again), body and time bounded, every failure a FetchError.
 */
export function createGuardedFetch(options: GuardedFetchOptions): GuardedFetch {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const allowPrivate = options.allowPrivate ?? false;
  const resolve = options.lookup ?? defaultLookup;
  const agent = () =>
    new Agent({
      connect: guardedConnector(resolve, allowPrivate, timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  const headers = (accept: string) => ({
    'user-agent': userAgent(options.publicOrigin),
    accept,
    'accept-encoding': 'identity',
  });

  const follow = async (start: URL, init: FetchRequest, signal: AbortSignal, dispatcher: Agent) => {
    let url = start;
    for (let hop = 0; ; hop += 1) {
      const answer = await request(url, { dispatcher, signal, headers: headers(init.accept) });
      const location = answer.headers.location;
      if (!REDIRECT_STATUSES.has(answer.statusCode) || typeof location !== 'string') {
        return { url, answer };
      }
      discard(answer.body);
      if (hop >= maxRedirects) {
        throw new FetchError('too-many-redirects', `more than ${maxRedirects} redirects`);
      }
      url = checkFetchUrl(location, allowPrivate, url);
    }
  };

  return async (raw, init) => {
    const start = checkFetchUrl(raw, allowPrivate);
    const budget = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([budget, init.signal]) : budget;
    const dispatcher = agent();
    try {
      const { url, answer } = await follow(start, init, signal, dispatcher);
      const responseHeaders = flatHeaders(answer.headers);
      if (answer.statusCode < 200 || answer.statusCode > 299) {
        discard(answer.body);
        throw new FetchError('http-status', `answered ${answer.statusCode}`, answer.statusCode);
      }
      const body = await readLimited(answer.body, responseHeaders['content-length'], maxBytes);
      const contentType = responseHeaders['content-type'] ?? null;
      return {
        status: answer.statusCode,
        url: url.href,
        contentType,
        headers: responseHeaders,
        body,
        text: () => decodeBody(body, contentType),
      };
    } catch (error) {
      throw asFetchError(error, budget.aborted);
    } finally {
      // Closes every connection this fetch opened, including one still waiting for an answer.
      void dispatcher.destroy().catch(() => undefined);
    }
  };
}
