/**
 * Slow clients against a listening server with short timeouts: slow headers, bodies sent a byte at
 * a time or cut off, a slow upload, and idle connections are all ended, with a 408 in the API's
 * error shape where an answer is still possible; a caller without a token is refused before its
 * body is read.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/app/config';
import { REQUEST_TIMEOUT_MESSAGE } from '../../src/app/plugins/error-handler';
import { call, createTestApp, type TestApp } from '../helpers';

/** Far above the timeouts here (1–1.5 s), far below what a connection left open would take. */
const GIVE_UP_MS = 10_000;

interface RawOutcome {
  status: number | null;
  headers: string;
  body: string;
  /** The server closed the connection (rather than the client giving up). */
  closed: boolean;
  ms: number;
}

interface SlowRequest {
  port: number;
  /** Sent at once. */
  head: string;
  /** Then sent one character at a time, `everyMs` apart, until the end or the connection closes. */
  drip?: { text: string; everyMs: number };
}

/** Sends a request over a raw socket, slowly, and reads what comes back until the server closes. */
function slowRequest(request: SlowRequest): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(request.port, '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      const [headers = '', body = ''] = received.split('\r\n\r\n', 2);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1];
      resolve({
        status: status === undefined ? null : Number(status),
        headers,
        body,
        closed,
        ms: performance.now() - started,
      });
    };
    const giveUp = setTimeout(() => {
      finish(false);
    }, GIVE_UP_MS);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('close', () => {
      finish(true);
    });
    // A write after the server closed may fail; what it answered was read already.
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      socket.write(request.head);
      const drip = request.drip;
      if (!drip) return;
      let next = 0;
      timer = setInterval(() => {
        if (next >= drip.text.length || socket.destroyed) {
          clearInterval(timer);
          return;
        }
        socket.write(drip.text[next] ?? '');
        next += 1;
      }, drip.everyMs);
    });
  });
}

function expectTimedOut(outcome: RawOutcome): void {
  expect(outcome.closed, 'the server closed the connection').toBe(true);
  expect(outcome.status, outcome.headers).toBe(408);
  expect(outcome.headers.toLowerCase()).toContain('cache-control: no-store');
  expect(JSON.parse(outcome.body)).toEqual({ errors: [REQUEST_TIMEOUT_MESSAGE] });
  expect(outcome.ms).toBeLessThan(GIVE_UP_MS);
}

const PASSWORD = 'correct horse battery';

async function signUp(t: TestApp): Promise<string> {
  const response = await call(t.app, {
    method: 'POST',
    url: '/api/auth/signup',
    payload: {
      username: 'slow_uploader',
      email: 'slow_uploader@example.com',
      password: PASSWORD,
      confirmPassword: PASSWORD,
      firstName: 'Slow',
      lastName: 'Uploader',
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ encodedToken: string }>().encodedToken;
}

async function listen(t: TestApp): Promise<number> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening');
  return address.port;
}

describe('with short timeouts', () => {
  let t: TestApp;
  let port: number;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({
      headersTimeoutMs: 1000,
      requestTimeoutMs: 1500,
      keepAliveTimeoutMs: 1000,
    });
    token = await signUp(t);
    port = await listen(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a request whose headers arrive a byte at a time is answered 408 and closed', async () => {
    expectTimedOut(
      await slowRequest({
        port,
        head: 'GET /api/health HTTP/1.1\r\nHost: perch\r\n',
        drip: { text: `X-Slow: ${'a'.repeat(200)}\r\n\r\n`, everyMs: 100 },
      }),
    );
  });

  it('a JSON body sent a byte at a time is answered 408 and closed', async () => {
    const body = JSON.stringify({ username: 'someone', password: 'x'.repeat(900) });
    expectTimedOut(
      await slowRequest({
        port,
        head:
          'POST /api/auth/login HTTP/1.1\r\nHost: perch\r\nContent-Type: application/json\r\n' +
          `Content-Length: ${String(body.length)}\r\n\r\n`,
        drip: { text: body, everyMs: 100 },
      }),
    );
  });

  it('a body that stops after 10 of 1,000 bytes is answered 408 and closed', async () => {
    expectTimedOut(
      await slowRequest({
        port,
        head:
          'POST /api/auth/login HTTP/1.1\r\nHost: perch\r\nContent-Type: application/json\r\n' +
          'Content-Length: 1000\r\n\r\n{"usernam',
      }),
    );
  });

  it('a member’s upload sent slowly is answered 408 and closed', async () => {
    const boundary = 'perch-slow-upload';
    const part =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n` +
      'Content-Type: image/png\r\n\r\n';
    expectTimedOut(
      await slowRequest({
        port,
        head:
          `POST /api/media HTTP/1.1\r\nHost: perch\r\nAuthorization: ${token}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
          `Content-Length: 100000\r\n\r\n${part}`,
        drip: { text: 'x'.repeat(1000), everyMs: 50 },
      }),
    );
  });

  it('an idle kept-alive connection is closed', async () => {
    const outcome = await slowRequest({
      port,
      head: 'GET /api/health HTTP/1.1\r\nHost: perch\r\n\r\n',
    });
    expect(outcome.status).toBe(200);
    expect(outcome.closed, 'the server closed the idle connection').toBe(true);
    expect(outcome.ms).toBeLessThan(GIVE_UP_MS);
  });
});

describe('with the timeouts far off', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({ requestTimeoutMs: 60_000 });
    port = await listen(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('a caller without a valid token is refused before its body is read', async () => {
    for (const authorization of ['', 'Authorization: not-a-token\r\n']) {
      const outcome = await slowRequest({
        port,
        head:
          `POST /api/posts HTTP/1.1\r\nHost: perch\r\n${authorization}` +
          'Content-Type: application/json\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n',
      });
      // Nothing of the body was sent: only a refusal on arrival can answer before GIVE_UP_MS.
      expect(outcome.status, outcome.headers).toBe(401);
      expect(outcome.headers.toLowerCase()).toContain('cache-control: no-store');
    }
  });
});

describe('timeout settings', () => {
  const load = (env: Record<string, string>) => loadConfig(env, { webDir: null });

  it('default to 30 s for headers, 60 s for a whole request, 72 s for an idle connection', () => {
    expect(load({})).toMatchObject({
      headersTimeoutMs: 30_000,
      requestTimeoutMs: 60_000,
      keepAliveTimeoutMs: 72_000,
    });
  });

  it('are read in seconds, and refuse a wait for headers longer than for the request', () => {
    expect(
      load({
        HEADERS_TIMEOUT_SECONDS: '5',
        REQUEST_TIMEOUT_SECONDS: '120',
        KEEP_ALIVE_TIMEOUT_SECONDS: '0.5',
      }),
    ).toMatchObject({ headersTimeoutMs: 5000, requestTimeoutMs: 120_000, keepAliveTimeoutMs: 500 });
    expect(() => load({ REQUEST_TIMEOUT_SECONDS: '0' })).toThrow(ConfigError);
    expect(() => load({ KEEP_ALIVE_TIMEOUT_SECONDS: 'never' })).toThrow(ConfigError);
    expect(() => load({ HEADERS_TIMEOUT_SECONDS: '90' })).toThrow(ConfigError);
    expect(load({ REQUEST_TIMEOUT_SECONDS: '10' }).headersTimeoutMs).toBe(10_000);
  });
});
