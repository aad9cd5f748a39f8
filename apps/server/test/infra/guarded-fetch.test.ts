import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import serverPackage from '../../package.json';
import {
  checkFetchUrl,
  createGuardedFetch,
  FetchError,
  isPublicAddress,
  type FetchFailureReason,
  type HostLookup,
} from '../../src/platform/infra/guarded-fetch';

const ORIGIN = 'https://perch.example';
const MIB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** What the local server saw. */
const seen = {
  connections: 0,
  requests: [] as IncomingMessage[],
  /** Resolves when a large body's connection closes before the server finished writing it. */
  largeBodyCut: null as Promise<boolean> | null,
};

/** Writes 2 MiB slowly enough that a client stopping at 1 MiB closes the socket first. */
function sendLargeBody(res: ServerResponse, declareLength: boolean): void {
  res.writeHead(200, {
    'content-type': 'text/html',
    ...(declareLength ? { 'content-length': String(2 * MIB) } : {}),
  });
  seen.largeBodyCut = (async () => {
    const closed = once(res, 'close').then(() => true);
    for (let written = 0; written < 2 * MIB; written += CHUNK) {
      if (res.destroyed) break;
      res.write(Buffer.alloc(CHUNK, 0x61));
      // Past the limit, give the client time to hang up before writing the rest.
      const pause = written > MIB ? 2000 : 1;
      const hungUp = await Promise.race([
        closed,
        new Promise<false>((resolve) =>
          setTimeout(() => {
            resolve(false);
          }, pause),
        ),
      ]);
      if (hungUp) break;
    }
    const cut = !res.writableEnded;
    res.end();
    return cut;
  })();
}

function route(req: IncomingMessage, res: ServerResponse): void {
  seen.requests.push(req);
  const url = new URL(req.url ?? '/', 'http://local');
  const redirect = /^\/redirect\/(\d+)$/.exec(url.pathname);
  if (redirect) {
    const left = Number(redirect[1]);
    res.writeHead(302, { location: left > 1 ? `/redirect/${left - 1}` : '/page' }).end();
  } else if (url.pathname === '/redirect-to') {
    res.writeHead(301, { location: url.searchParams.get('to') ?? '/' }).end();
  } else if (url.pathname === '/page') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<title>Hi ✓</title>');
  } else if (url.pathname === '/latin1') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=ISO-8859-1' });
    res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  } else if (url.pathname === '/large') {
    sendLargeBody(res, false);
  } else if (url.pathname === '/large-declared') {
    sendLargeBody(res, true);
  } else if (url.pathname === '/stalled-body') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<html>');
  } else if (url.pathname === '/hang') {
    // Never answers.
  } else {
    res.writeHead(404).end('not here');
  }
}

let server: Server;
let port: number;
let base: string;

beforeAll(async () => {
  server = createServer(route);
  server.on('connection', () => {
    seen.connections += 1;
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});

beforeEach(() => {
  seen.connections = 0;
  seen.requests = [];
  seen.largeBodyCut = null;
});

/** The reason a fetch failed with; fails the test when it succeeds or throws something else. */
async function failure(promise: Promise<unknown>): Promise<FetchFailureReason> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FetchError);
    return (error as FetchError).reason;
  }
  throw new Error('the fetch succeeded');
}

const html = { accept: 'text/html' };

describe('address rules', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '192.0.2.1',
    '198.51.100.7',
    '203.0.113.9',
    '240.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '2001:db8::1',
    '64:ff9b::7f00:1',
    '::7f00:1',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it('checks URLs: scheme, credentials, literal addresses, and redirect targets', () => {
    const reason = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error instanceof FetchError ? error.reason : 'other';
      }
      return 'accepted';
    };
    expect(reason(() => checkFetchUrl('https://example.com/a'))).toBe('accepted');
    expect(reason(() => checkFetchUrl('http://example.com:8080/a'))).toBe('accepted');
    expect(reason(() => checkFetchUrl('not a url'))).toBe('bad-url');
    expect(reason(() => checkFetchUrl('file:///etc/passwd'))).toBe('bad-url');
    expect(reason(() => checkFetchUrl('javascript:alert(1)'))).toBe('bad-url');
    expect(reason(() => checkFetchUrl('ftp://example.com/'))).toBe('bad-url');
    expect(reason(() => checkFetchUrl('https://user:secret@example.com/'))).toBe('bad-url');
    expect(reason(() => checkFetchUrl('http://0x7f.1/'))).toBe('refused-address');
    expect(reason(() => checkFetchUrl('http://[::ffff:127.0.0.1]/'))).toBe('refused-address');
    // A redirect's Location, relative or absolute, is judged by the same rules.
    const page = new URL('https://example.com/post');
    expect(reason(() => checkFetchUrl('/next', false, page))).toBe('accepted');
    expect(reason(() => checkFetchUrl('http://169.254.169.254/x', false, page))).toBe(
      'refused-address',
    );
    expect(reason(() => checkFetchUrl('http://127.0.0.1/x', true, page))).toBe('accepted');
  });
});

describe('guarded fetch refuses non-public addresses', () => {
  const guarded = createGuardedFetch({ publicOrigin: ORIGIN, timeoutMs: 3000 });

  it('refuses the local server without sending it anything', async () => {
    expect(await failure(guarded(`${base}/page`, html))).toBe('refused-address');
    expect(seen.connections).toBe(0);
    expect(seen.requests).toHaveLength(0);
  });

  it('refuses a host name that resolves to loopback before connecting', async () => {
    expect(await failure(guarded(`http://localhost:${port}/page`, html))).toBe('refused-address');
    expect(seen.connections).toBe(0);
  });

  it.each([
    'http://[::1]/',
    'http://10.0.0.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0/',
    'http://100.64.0.1/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'https://[fd00::1]:8443/',
  ])('refuses %s', async (url) => {
    expect(await failure(guarded(url, html))).toBe('refused-address');
  });

  it('refuses the local server by its decimal, octal and hex forms', async () => {
    for (const host of ['2130706433', '0177.0.0.1', '0x7f.1']) {
      expect(await failure(guarded(`http://${host}:${port}/page`, html))).toBe('refused-address');
    }
    expect(seen.connections).toBe(0);
  });

  it('refuses bad URLs', async () => {
    expect(await failure(guarded('gopher://example.com/', html))).toBe('bad-url');
    expect(await failure(guarded('http://user:pw@example.com/', html))).toBe('bad-url');
    expect(await failure(guarded('::nonsense', html))).toBe('bad-url');
  });
});

describe('DNS rebinding', () => {
  /** A resolver whose answers come from a list, one per call, and that counts its calls. */
  function scriptedLookup(answers: string[][]): HostLookup & { calls: number } {
    const lookup = async (_hostname: string) => {
      const answer = answers[Math.min(lookup.calls, answers.length - 1)] ?? [];
      lookup.calls += 1;
      return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
    lookup.calls = 0;
    return lookup;
  }

  it('connects to the address its own lookup answered (the stub is what is used)', async () => {
    const lookup = scriptedLookup([['127.0.0.1']]);
    const guarded = createGuardedFetch({ publicOrigin: ORIGIN, allowPrivate: true, lookup });
    const answer = await guarded(`http://rebind.test:${port}/page`, html);
    expect(answer.text()).toContain('Hi ✓');
    expect(seen.requests[0]?.headers.host).toBe(`rebind.test:${port}`);
    expect(lookup.calls).toBe(1);
  });

  it('refuses at connect when the answer changed to loopback after an earlier check', async () => {
    const lookup = scriptedLookup([['93.184.216.34'], ['127.0.0.1']]);
    // A caller's earlier check sees the public address...
    const earlier = await lookup('rebind.test');
    expect(earlier.every((a) => isPublicAddress(a.address))).toBe(true);
    // ...but the fetch resolves again when it connects, checks that answer and refuses it.
    const guarded = createGuardedFetch({ publicOrigin: ORIGIN, lookup });
    expect(await failure(guarded(`http://rebind.test:${port}/page`, html))).toBe('refused-address');
    expect(lookup.calls).toBe(2);
    expect(seen.connections).toBe(0);
  });

  it('refuses a host when any of its addresses is private', async () => {
    const lookup = scriptedLookup([['93.184.216.34', '127.0.0.1']]);
    const guarded = createGuardedFetch({ publicOrigin: ORIGIN, lookup });
    expect(await failure(guarded(`http://rebind.test:${port}/page`, html))).toBe('refused-address');
    expect(seen.connections).toBe(0);
  });

  it('refuses IPv4-mapped loopback answers', async () => {
    const lookup = scriptedLookup([['::ffff:127.0.0.1']]);
    const guarded = createGuardedFetch({ publicOrigin: ORIGIN, lookup });
    expect(await failure(guarded(`http://rebind.test:${port}/`, html))).toBe('refused-address');
  });
});

describe('guarded fetch against a local server (private addresses allowed)', () => {
  const guarded = createGuardedFetch({
    publicOrigin: ORIGIN,
    allowPrivate: true,
    timeoutMs: 3000,
  });

  it('fetches a page with an honest User-Agent and the Accept asked for', async () => {
    const answer = await guarded(`${base}/page`, html);
    expect(answer.status).toBe(200);
    expect(answer.url).toBe(`${base}/page`);
    expect(answer.contentType).toBe('text/html; charset=utf-8');
    expect(answer.body.toString('utf8')).toBe('<title>Hi ✓</title>');
    const request = seen.requests[0];
    expect(request?.headers['user-agent']).toBe(
      `Perch/${serverPackage.version} (+https://perch.example)`,
    );
    expect(request?.headers.accept).toBe('text/html');
  });

  it('decodes text with the charset the answer names', async () => {
    const answer = await guarded(`${base}/latin1`, { accept: 'text/plain' });
    expect(answer.text()).toBe('café');
  });

  it('follows three redirects, each hop a new request', async () => {
    const answer = await guarded(`${base}/redirect/3`, html);
    expect(answer.url).toBe(`${base}/page`);
    expect(seen.requests.map((r) => r.url)).toEqual([
      '/redirect/3',
      '/redirect/2',
      '/redirect/1',
      '/page',
    ]);
  });

  it('refuses a fourth redirect', async () => {
    expect(await failure(guarded(`${base}/redirect/4`, html))).toBe('too-many-redirects');
    expect(seen.requests).toHaveLength(4);
  });

  it('checks every redirect target', async () => {
    const to = (location: string) => `${base}/redirect-to?to=${encodeURIComponent(location)}`;
    expect(await failure(guarded(to('file:///etc/passwd'), html))).toBe('bad-url');
    expect(await failure(guarded(to(`http://u:p@127.0.0.1:${port}/page`), html))).toBe('bad-url');
    expect(seen.requests.map((r) => r.url)).not.toContain('/page');
  });

  it('fails with the status when the answer is not a success', async () => {
    const error = await guarded(`${base}/missing`, html).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect((error as FetchError).reason).toBe('http-status');
    expect((error as FetchError).status).toBe(404);
  });

  it('stops reading a 2 MiB body past 1 MiB and hangs up', async () => {
    expect(await failure(guarded(`${base}/large`, html))).toBe('too-large');
    expect(await seen.largeBodyCut).toBe(true);
  });

  it('refuses a body declared larger than the limit before reading it', async () => {
    expect(await failure(guarded(`${base}/large-declared`, html))).toBe('too-large');
    expect(await seen.largeBodyCut).toBe(true);
  });

  it('gives up on a server that never answers, within the budget', async () => {
    const quick = createGuardedFetch({ publicOrigin: ORIGIN, allowPrivate: true, timeoutMs: 300 });
    const started = Date.now();
    expect(await failure(quick(`${base}/hang`, html))).toBe('timeout');
    expect(await failure(quick(`${base}/stalled-body`, html))).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reports a closed port as a network failure', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const closedPort = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    expect(await failure(guarded(`http://127.0.0.1:${closedPort}/`, html))).toBe('network');
  });

  it('stops when the caller cancels', async () => {
    const controller = new AbortController();
    const pending = guarded(`${base}/hang`, { ...html, signal: controller.signal });
    setTimeout(() => {
      controller.abort();
    }, 50);
    expect(await failure(pending)).toBe('network');
  });
});
