import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firePaced } from './paced';

/** A server answering at once, except one answer that holds the event loop for `stallMs`. */
function stallingServer(stallAt: number, stallMs: number) {
  let answered = 0;
  return http.createServer((request, response) => {
    answered += 1;
    if (answered === stallAt) {
      const until = performance.now() + stallMs;
      while (performance.now() < until) {
        // holds every other request back, as a long collection or a slow query would
      }
    }
    response.end(request.url);
  });
}

describe('constant-rate load', () => {
  const server = stallingServer(40, 200);
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  );

  // The stall holds this process's generator too: the requests it could not send meanwhile are
  // charged from when they were due, as a separate generator's would be.
  it('sends every request and charges the ones a stall held back from their intended time', async () => {
    const paths: string[] = [];
    const figures = await firePaced({
      url,
      requests: [
        {
          method: 'GET',
          setupRequest: (request) => ({ ...request, path: `/n${paths.length}` }),
          onResponse: (_status: number, body: string) => {
            paths.push(body);
          },
        },
      ],
      rate: 200,
      seconds: 1,
      connections: 10,
      timeoutSeconds: 5,
    });
    expect(figures.requests).toBe(200);
    expect(paths).toHaveLength(200);
    expect(figures.non2xx + figures.errors).toBe(0);
    // 200 ms at 200 a second: about 40 requests were due during the stall, the first of them
    // 200 ms late; measured from when each was sent, only the one that stalled would be slow.
    expect(figures.p99).toBeGreaterThan(100);
    expect(figures.max).toBeGreaterThan(180);
  });

  it('plays a sequence in order within a flow, with its context', async () => {
    const seen: string[] = [];
    await firePaced({
      url,
      requests: [
        {
          method: 'POST',
          setupRequest: (request, context) => {
            (context as { n?: number }).n = seen.length;
            return { ...request, path: '/on' };
          },
          onResponse: (_status: number, body: string) => {
            seen.push(body);
          },
        },
        {
          method: 'POST',
          setupRequest: (request, context) => ({
            ...request,
            path: `/off/${String((context as { n?: number }).n)}`,
          }),
          onResponse: (_status: number, body: string) => {
            seen.push(body);
          },
        },
      ],
      rate: 100,
      seconds: 0.4,
      connections: 4,
      timeoutSeconds: 5,
    });
    const ons = seen.filter((path) => path === '/on').length;
    const offs = seen.filter((path) => path.startsWith('/off/'));
    expect(ons + offs.length).toBe(40);
    expect(offs.length).toBeLessThanOrEqual(ons);
    expect(offs.every((path) => path !== '/off/undefined')).toBe(true);
  });
});
