import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A page or image the link server answers with, by path. */
export type Route = (response: ServerResponse) => void;

export interface LinkServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Requests received, by path. */
  hits: Map<string, number>;
  close: () => Promise<void>;
}

/** A local web server for preview cards to fetch, counting the requests it gets per path. */
export async function startLinkServer(routes: Record<string, Route>): Promise<LinkServer> {
  const hits = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    route(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

export const html =
  (body: string): Route =>
  (response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  };

export const bytes =
  (data: Buffer, type: string): Route =>
  (response) => {
    response.writeHead(200, { 'content-type': type, 'content-length': data.length }).end(data);
  };

/** A page with OpenGraph tags naming its image. */
export function ogPage(fields: { title: string; description: string; image?: string }): string {
  return `<!doctype html><html><head><title>Plain ${fields.title}</title>
<meta property="og:title" content="${fields.title}">
<meta property="og:description" content="${fields.description}">
<meta property="og:site_name" content="Perch Field Notes">
${fields.image ? `<meta property="og:image" content="${fields.image}">` : ''}
</head><body><p>Hello</p></body></html>`;
}
