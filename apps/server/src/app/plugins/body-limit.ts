import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { MEDIA_MAX_BYTES, MediaMessages } from '@perch/contract';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/errors';

/** How long a connection closed mid-upload goes on reading the rest before it is cut. */
const LINGER_MS = 5_000;

// The upload route reads its multipart body itself, past bodyLimit, and checks the exact size
// there (the largest image plus the multipart framing); this only has to let all of that through.
const UPLOAD_ROUTE = '/api/media';
const UPLOAD_LIMIT = MEDIA_MAX_BYTES + 1024 * 1024;

/** Requests whose client holds the body back until it is told `100 Continue`. */
const awaitingContinue = new WeakSet<IncomingMessage>();

/** The answer for a request whose announced body is over its route's limit, if it is. */
function refusalFor(request: FastifyRequest): Error | undefined {
  const announced = Number(request.headers['content-length']);
  if (request.routeOptions.url?.startsWith(UPLOAD_ROUTE)) {
    return announced > UPLOAD_LIMIT ? new AppError(413, MediaMessages.tooLarge) : undefined;
  }
  return announced > request.routeOptions.bodyLimit
    ? new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE()
    : undefined;
}

// Injected requests have no connection to reset, and no `complete` either.
const bodyStillArriving = (raw: IncomingMessage): boolean =>
  raw.socket instanceof Socket &&
  !raw.complete &&
  (Number(raw.headers['content-length']) > 0 || raw.headers['transfer-encoding'] !== undefined);

/**
 * Node ends an answer marked `Connection: close` with socket.destroySoon(): the socket is
 * destroyed once the answer is written, and a client still uploading meets a reset that often
 * wipes out the answer before it is read. Closing only our side lets the client read the answer;
 * the rest of its upload is read and thrown away until it closes too, or until LINGER_MS.
 */
function lingerOnClose(socket: Socket, raw: IncomingMessage): void {
  socket.destroySoon = () => {
    if (socket.destroyed) return;
    socket.end();
    raw.resume();
    const cut = setTimeout(() => socket.destroy(), LINGER_MS);
    cut.unref();
    socket.once('close', () => {
      clearTimeout(cut);
    });
  };
}

/**
 * Over-size bodies get their 413 every time: refused before upload when the client asks first
 * (`Expect: 100-continue`), and otherwise answered without resetting the upload still under way.
 */
export const bodyLimitGuard = fp(
  (app: FastifyInstance, _options: unknown, done: () => void) => {
    // With a listener here Node no longer answers `100 Continue` by itself: the route decides.
    app.server.on('checkContinue', (req: IncomingMessage, res) => {
      awaitingContinue.add(req);
      app.server.emit('request', req, res);
    });

    app.addHook('preParsing', async (request, reply) => {
      if (!awaitingContinue.has(request.raw)) return;
      const refusal = refusalFor(request);
      if (refusal) throw refusal;
      awaitingContinue.delete(request.raw);
      reply.raw.writeContinue();
    });

    app.addHook('onSend', async (request, reply) => {
      // A client never told to continue still owes the body it announced: the connection cannot
      // carry another request.
      if (awaitingContinue.has(request.raw)) void reply.header('connection', 'close');
      if (bodyStillArriving(request.raw)) lingerOnClose(request.raw.socket, request.raw);
    });

    done();
  },
  { name: 'perch-body-limit' },
);
