import http, {
  type ClientRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';

/** One Server-Sent Events message as the client parsed it. */
export interface SseMessage {
  id: number | undefined;
  event: string;
  data: unknown;
}

export interface SseStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** Every message received so far, in order. */
  messages: SseMessage[];
  /** Everything the server sent, as text (the JSON body of an error answer). */
  text: () => string;
  /** Resolves when the server ended the answer or the connection closed. */
  ended: Promise<void>;
  isEnded: () => boolean;
  /**
   * The next message, after those an earlier next() answered, that matches `predicate`; rejects
   * after `timeoutMs` or when the stream ends first.
   */
  next: (predicate?: (message: SseMessage) => boolean, timeoutMs?: number) => Promise<SseMessage>;
  close: () => void;
}

const open = new Set<SseStream>();

/** Parses one block of lines (between blank lines); null for comments and retry-only blocks. */
export function parseSseBlock(block: string): SseMessage | null {
  let id: number | undefined;
  let event = 'message';
  const data: string[] = [];
  let hasData = false;
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = Number(value);
    else if (field === 'event') event = value;
    else if (field === 'data') {
      data.push(value);
      hasData = true;
    }
  }
  if (!hasData) return null;
  const text = data.join('\n');
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: kept as text.
  }
  return { id, event, data: parsed };
}

/** Opens GET `url` and reads it as an event stream (or, for an error answer, as text). */
export function openStream(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    let request: ClientRequest | null = null;
    const onResponse = (response: IncomingMessage) => {
      response.setEncoding('utf8');
      let raw = '';
      let buffer = '';
      let readFrom = 0;
      let done = false;
      const waiters = new Set<() => void>();
      const wakeAll = () => {
        for (const waiter of [...waiters]) waiter();
      };
      let endStream: () => void = () => undefined;
      const ended = new Promise<void>((resolveEnded) => {
        endStream = () => {
          if (done) return;
          done = true;
          open.delete(stream);
          resolveEnded();
          wakeAll();
        };
      });
      response.on('data', (chunk: string) => {
        raw += chunk;
        buffer += chunk.replace(/\r\n?/g, '\n');
        let boundary = buffer.indexOf('\n\n');
        while (boundary !== -1) {
          const message = parseSseBlock(buffer.slice(0, boundary));
          buffer = buffer.slice(boundary + 2);
          if (message) stream.messages.push(message);
          boundary = buffer.indexOf('\n\n');
        }
        wakeAll();
      });
      response.on('end', endStream);
      response.on('close', endStream);
      response.on('error', endStream);

      const stream: SseStream = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        messages: [],
        text: () => raw,
        ended,
        isEnded: () => done,
        next: (predicate = () => true, timeoutMs = 5000) =>
          new Promise<SseMessage>((resolveNext, rejectNext) => {
            const check = () => {
              for (let i = readFrom; i < stream.messages.length; i += 1) {
                const message = stream.messages[i];
                if (message && predicate(message)) {
                  readFrom = i + 1;
                  finish();
                  resolveNext(message);
                  return;
                }
              }
              if (done) {
                finish();
                rejectNext(new Error(`the stream ended first; received ${describe()}`));
              }
            };
            const timer = setTimeout(() => {
              finish();
              rejectNext(
                new Error(`no matching message in ${timeoutMs} ms; received ${describe()}`),
              );
            }, timeoutMs);
            const finish = () => {
              clearTimeout(timer);
              waiters.delete(check);
            };
            waiters.add(check);
            check();
          }),
        close: () => {
          request?.destroy();
          response.destroy();
          endStream();
        },
      };
      const describe = () =>
        JSON.stringify(stream.messages.map(({ id, event, data }) => ({ id, event, data })));
      open.add(stream);
      resolve(stream);
    };
    request = http.get(url, { headers, agent: false }, onResponse);
    request.on('error', reject);
  });
}

/** Closes every stream still open (for afterEach/afterAll, so that nothing keeps the run alive). */
export function closeAllStreams(): void {
  for (const stream of [...open]) stream.close();
}
