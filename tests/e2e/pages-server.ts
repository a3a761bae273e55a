import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';

export const PAGES_DIR = resolve(import.meta.dirname, '../fixtures/pages');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.css': 'text/css',
};

export interface PagesServer {
  url: string;
  /** Serves `html` at `path` (e.g. a page made by a test). */
  put(path: string, html: string): void;
  /**
   * Serves `body` at `path` with content type `type` (e.g. a PDF made by a test). `pageOnly`: only to
   * the tab's own navigation and same-origin requests (as a site behind same-site cookies does); 403
   * to anything else, such as the extension's background.
   */
  putFile(path: string, body: Uint8Array, type: string, opts?: { pageOnly?: boolean }): void;
  /**
   * Answers `path` with a redirect to `to` (302). `exceptPage`: the tab's own navigation is served what is
   * put at `path` instead (a site that shows the user one file and sends the extension's download elsewhere).
   */
  redirect(path: string, to: string, opts?: { exceptPage?: boolean }): void;
  /**
   * Serves a body of `size` bytes at `path`, made as it is sent (starting with `head`), with or without a
   * Content-Length; the tab's own navigation gets `pageBody` instead when given (a file that is huge only
   * to the extension's download). `sent(path)`: how many bytes of it went out, all requests together.
   */
  putHuge(path: string, opts: { type: string; size: number; head: string; declareLength: boolean; pageBody?: Uint8Array }): void;
  sent(path: string): number;
  /** `path`'s host gone from the network for `seconds`: every request for it is cut unanswered (`cut(path)` counts them). */
  unreachable(path: string, seconds: number): void;
  cut(path: string): number;
  close(): Promise<void>;
}

/** What `pagesHandler` serves with: its requests, and the calls that shape its pages (`PagesServer`'s, but its address and end). */
export interface PagesHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  api: Omit<PagesServer, 'url' | 'close'>;
}

/** Serves the fixture pages on loopback, where the extension has host access. */
export async function startPagesServer(dir = PAGES_DIR): Promise<PagesServer> {
  const { handle, api } = pagesHandler(dir);
  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    ...api,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/**
 * The fixture pages served by the local speech service itself, at its own address (`FakeService.mountPages`): the
 * extension reads a queued link on this machine only from the service's own host and port (a developer's service
 * and its pages), so the tests' pages are where a developer's would be.
 */
export function pagesOnService(service: { url: string; mountPages(handle: PagesHandler['handle'] | null): void }, dir = PAGES_DIR): PagesServer {
  const { handle, api } = pagesHandler(dir);
  service.mountPages(handle);
  return { url: service.url, ...api, close: async () => service.mountPages(null) };
}

/** The fixture pages' answers, and the calls that shape them. */
export function pagesHandler(dir = PAGES_DIR): PagesHandler {
  const extra = new Map<string, string>();
  const redirects = new Map<string, { to: string; exceptPage?: boolean }>();
  const huge = new Map<string, { type: string; size: number; head: string; declareLength: boolean; pageBody?: Uint8Array }>();
  const sentBytes = new Map<string, number>();
  const files = new Map<string, { body: Uint8Array; type: string; pageOnly?: boolean }>();
  const gone = new Map<string, { until: number; cut: number }>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const away = gone.get(path);
    if (away && Date.now() < away.until) {
      away.cut += 1;
      return void req.socket.destroy();
    }
    const served = files.get(path);
    const fromPage = req.headers['sec-fetch-mode'] === 'navigate' || req.headers['sec-fetch-site'] === 'same-origin';
    const redirect = redirects.get(path);
    if (redirect && !(redirect.exceptPage && req.headers['sec-fetch-mode'] === 'navigate')) {
      res.writeHead(302, { Location: redirect.to }).end();
      return;
    }
    const big = huge.get(path);
    if (big && big.pageBody && req.headers['sec-fetch-mode'] === 'navigate') {
      res.writeHead(200, { 'Content-Type': big.type, 'Content-Length': String(big.pageBody.byteLength) });
      res.end(big.pageBody);
      return;
    }
    if (big) {
      res.writeHead(200, { 'Content-Type': big.type, ...(big.declareLength ? { 'Content-Length': String(big.size) } : {}) });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      let left = big.size;
      const count = (n: number) => sentBytes.set(path, (sentBytes.get(path) ?? 0) + n);
      const head = Buffer.from(big.head);
      res.write(head);
      count(head.length);
      left -= head.length;
      // Made as it is sent, waiting whenever the reader stops reading (it may never ask for the rest).
      const more = () => {
        while (left > 0) {
          const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
          left -= piece.length;
          count(piece.length);
          if (!res.write(piece)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('close', () => (left = 0));
      more();
      return;
    }
    if (served?.pageOnly && !fromPage) {
      res.writeHead(403).end('forbidden');
      return;
    }
    if (served) {
      res.writeHead(200, { 'Content-Type': served.type, 'Content-Length': String(served.body.byteLength) });
      res.end(served.body);
      return;
    }
    const made = extra.get(path);
    if (made !== undefined) {
      res.writeHead(200, { 'Content-Type': TYPES['.html'] });
      res.end(made);
      return;
    }
    const file = normalize(join(dir, path));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  };
  return {
    handle,
    api: {
    put: (path, html) => extra.set(path, html),
    putFile: (path, body, type, opts) => files.set(path, { body, type, ...opts }),
    redirect: (path, to, opts) => redirects.set(path, { to, ...opts }),
    putHuge: (path, opts) => huge.set(path, opts),
    sent: (path) => sentBytes.get(path) ?? 0,
    unreachable: (path, seconds) => void gone.set(path, { until: Date.now() + seconds * 1000, cut: 0 }),
    cut: (path) => gone.get(path)?.cut ?? 0,
    },
  };
}
