import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorMessages, MEDIA_MAX_BYTES, MediaMessages, type ErrorBody } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '../factories';
import { createTestApp, type TestApp } from '../helpers';
import { createMembers } from '../social/social-helpers';

const BIG = 5_000_000;
const CHUNK = 64 * 1024;
const MULTIPART = 'multipart/form-data; boundary=perch-test-boundary';

let t: TestApp;
let member: Member;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  [member] = await createMembers(t.app, 1);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  continued: boolean;
}

interface Send {
  path: string;
  /** The JSON body, or its size: a string field padded out to that many bytes. */
  body: string | number;
  token?: string;
  expectContinue?: boolean;
  /** Sent without a length, in chunked encoding: the server learns the size only by reading. */
  chunked?: boolean;
}

function readAnswer(res: IncomingMessage, continued: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (body += chunk));
    res.on('error', reject);
    res.on('end', () => {
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body, continued });
    });
  });
}

function jsonOfSize(size: number): Buffer {
  const head = '{"username":"';
  const tail = '","password":"whatever1"}';
  return Buffer.from(head + 'a'.repeat(size - head.length - tail.length) + tail);
}

/**
 * Posts the way an uploading client does: on a fresh connection, the whole body in pieces as the
 * socket takes them, reading the answer whenever it comes, even before the upload is done. Any
 * error before both are over (a reset, a broken pipe) fails the request.
 */
function send({
  path,
  body,
  token,
  expectContinue = false,
  chunked = false,
}: Send): Promise<Answer> {
  const payload = typeof body === 'number' ? jsonOfSize(body) : Buffer.from(body);
  return new Promise<Answer>((resolve, reject) => {
    let answer: Answer | undefined;
    let continued = false;
    let uploaded = false;
    let closed = false;
    const req = request({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        ...(chunked ? {} : { 'content-length': String(payload.length) }),
        ...(expectContinue ? { expect: '100-continue' } : {}),
        ...(token ? { authorization: token } : {}),
      },
    });
    const settle = (): void => {
      if (answer && (uploaded || closed)) {
        resolve(answer);
        req.destroy();
      }
    };
    req.on('error', reject);
    req.on('finish', () => {
      uploaded = true;
      settle();
    });
    req.on('close', () => {
      closed = true;
      settle();
    });
    req.on('response', (res) => {
      readAnswer(res, continued).then((read) => {
        answer = read;
        settle();
      }, reject);
    });

    let sent = 0;
    const pump = (): void => {
      while (sent < payload.length) {
        const piece = payload.subarray(sent, sent + CHUNK);
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    if (expectContinue) {
      req.on('continue', () => {
        continued = true;
        pump();
      });
      req.flushHeaders();
    } else {
      pump();
    }
  });
}

interface Ask {
  path: string;
  size: number;
  token?: string;
  contentType?: string;
}

/** Announces a body and waits for the server's word: `100 Continue`, or a final answer. */
function ask({
  path,
  size,
  token,
  contentType = 'application/json',
}: Ask): Promise<Answer | 'continue'> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path,
      method: 'POST',
      agent: false,
      headers: {
        'content-type': contentType,
        'content-length': String(size),
        expect: '100-continue',
        ...(token ? { authorization: token } : {}),
      },
    });
    req.on('error', reject);
    req.on('continue', () => {
      resolve('continue');
      req.destroy();
    });
    req.on('response', (res) => {
      readAnswer(res, false).then((answer) => {
        resolve(answer);
        req.destroy();
      }, reject);
    });
    req.flushHeaders();
  });
}

function expectTooLarge(answer: Answer | 'continue', message?: string): void {
  if (answer === 'continue') throw new Error('told to continue with a body over the limit');
  expect(answer.status, answer.body).toBe(413);
  const body = JSON.parse(answer.body) as ErrorBody;
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0]?.trim()).not.toBe('');
  if (message) expect(body.errors).toEqual([message]);
  expect(answer.headers.connection).toBe('close');
}

describe('request bodies over the limit', () => {
  it('are always answered 413 in the error shape, never with a reset', async () => {
    for (let i = 0; i < 20; i += 1) {
      expectTooLarge(await send({ path: '/api/auth/login', body: BIG }));
      expectTooLarge(await send({ path: '/api/posts', body: BIG, token: member.token }));
    }
  });

  it('are answered 413 without a reset when they come without a length', async () => {
    for (let i = 0; i < 5; i += 1) {
      expectTooLarge(await send({ path: '/api/auth/login', body: BIG, chunked: true }));
    }
  });

  it('are refused before the upload when the client waits for 100 Continue', async () => {
    expectTooLarge(await ask({ path: '/api/auth/login', size: BIG }));
    expectTooLarge(await ask({ path: '/api/posts', size: BIG, token: member.token }));
  });

  it('are measured against the upload limit on the upload route', async () => {
    const upload = { path: '/api/media', token: member.token, contentType: MULTIPART };
    expect(await ask({ ...upload, size: MEDIA_MAX_BYTES + 32 * 1024 })).toBe('continue');
    expectTooLarge(await ask({ ...upload, size: 2 * MEDIA_MAX_BYTES }), MediaMessages.tooLarge);
  });

  it('leave the server serving: ordinary and 100-continue requests still succeed', async () => {
    const login = JSON.stringify({ username: 'nobody_here', password: 'whatever1' });
    for (const expectContinue of [false, true]) {
      const answer = await send({ path: '/api/auth/login', body: login, expectContinue });
      expect(answer.status, answer.body).toBe(404);
      expect(answer.continued).toBe(expectContinue);
      expect((JSON.parse(answer.body) as ErrorBody).errors).toEqual([ErrorMessages.notRegistered]);
    }
    const post = JSON.stringify({ postData: { content: 'still here' } });
    const created = await send({ path: '/api/posts', body: post, token: member.token });
    expect(created.status, created.body).toBe(201);
  });
});
