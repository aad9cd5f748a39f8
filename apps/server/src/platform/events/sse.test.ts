import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { openSse, type SseWriter } from './sse';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server whose every request becomes an SSE stream handed to the test. */
async function sseServer(maxBufferedBytes: number) {
  const writers: SseWriter[] = [];
  const server = http.createServer((_request, response) => {
    writers.push(openSse(response, { heartbeatMs: 60_000, maxBufferedBytes, retryMs: 1000 }));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, writers };
}

function connect(port: number): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/' }, resolve).on('error', reject);
  });
}

const until = async (check: () => boolean, ms = 3000) => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
};

it('lets go of a client that stops reading while the others keep receiving', async () => {
  const { port, writers } = await sseServer(64 * 1024);
  const slow = await connect(port);
  const fast = await connect(port);
  slow.pause();
  let fastBytes = 0;
  fast.on('data', (chunk: Buffer) => (fastBytes += chunk.length));
  await until(() => writers.length === 2);
  const [slowWriter, fastWriter] = writers;
  if (!slowWriter || !fastWriter) throw new Error('streams did not open');

  const data = 'x'.repeat(16 * 1024);
  for (let i = 0; i < 400 && !slowWriter.closed(); i += 1) {
    slowWriter.send({ id: i, event: 'big', data });
    fastWriter.send({ id: i, event: 'big', data });
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect(slowWriter.closed()).toBe(true);
  expect(fastWriter.closed()).toBe(false);
  await until(() => fastBytes > 1024 * 1024);
  expect(fastBytes).toBeGreaterThan(1024 * 1024);
});

it('frames messages with id, event and data, and writes a burst together', async () => {
  const { port, writers } = await sseServer(1024 * 1024);
  const response = await connect(port);
  let text = '';
  response.on('data', (chunk: Buffer) => (text += chunk.toString()));
  await until(() => writers.length === 1);
  const writer = writers[0];
  if (!writer) throw new Error('stream did not open');
  writer.send({ id: 7, event: 'post.liked', data: { postId: 'p', likeCount: 2 } });
  writer.send({ event: 'ready', data: { unreadCount: 0 } });
  await until(() => text.includes('event: ready'));
  expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
  expect(response.headers['x-accel-buffering']).toBe('no');
  expect(text).toContain('retry: 1000\n\n');
  expect(text).toContain('id: 7\nevent: post.liked\ndata: {"postId":"p","likeCount":2}\n\n');
  expect(text).toContain('event: ready\ndata: {"unreadCount":0}\n\n');
  writer.close();
  expect(writer.closed()).toBe(true);
  expect(writer.send({ event: 'late', data: {} })).toBe(false);
});
