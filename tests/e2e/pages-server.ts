import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
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
  close(): Promise<void>;
}

/** Serves the fixture pages on loopback, where the extension has host access. */
export async function startPagesServer(dir = PAGES_DIR): Promise<PagesServer> {
  const extra = new Map<string, string>();
  const files = new Map<string, { body: Uint8Array; type: string; pageOnly?: boolean }>();
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const served = files.get(path);
    const fromPage = req.headers['sec-fetch-mode'] === 'navigate' || req.headers['sec-fetch-site'] === 'same-origin';
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
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    put: (path, html) => extra.set(path, html),
    putFile: (path, body, type, opts) => files.set(path, { body, type, ...opts }),
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
