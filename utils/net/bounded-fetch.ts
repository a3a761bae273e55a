/**
 * Fetching a page or a file the user pointed at (background): where it may lead and how much of it is
 * read. Pure over the `fetch` and the permission check it is given.
 *
 * Redirects: a browser hides a redirect's target from the extension (`redirect: 'manual'` gives an
 * opaque answer, status 0, no Location — measured in Chromium 156). So the first request is made with
 * `manual`: most pages answer it at once. Where the answer is a readable redirect (a test's fetch, a
 * future browser), each hop is checked before it is requested. Where it is opaque, the chain is left to
 * the browser **without cookies** and the address it ended at is checked before a byte of it is read.
 */
import { ReadingError } from '../speech/errors';

/** A page bigger than this is not read (8 MiB: the largest of the 143 corpus pages is 1.9 MB). */
export const PAGE_MAX_BYTES = 8 * 1024 * 1024;
/** A PDF bigger than this is not opened (200 MiB: pdf.js holds the whole file, and a copy is kept for the PDF page). */
export const PDF_MAX_BYTES = 200 * 1024 * 1024;
/** The largest book file: an EPUB or AZW3 is read a section at a time, so it may be large (pictures make most of it). */
export const BOOK_MAX_BYTES = 100 * 1024 * 1024;
/** The largest FB2 (alone, or unzipped): foliate-js parses it whole, pictures and all. */
export const FB2_MAX_BYTES = 40 * 1024 * 1024;
/** Hops followed by hand before giving up (browsers stop at 20; pages rarely need more than 3). */
export const MAX_HOPS = 10;

export interface FetchDeps {
  fetch(url: string, init: RequestInit): Promise<Response>;
  /** Whether the extension holds the access to read this address (a host permission). */
  mayReach(url: URL): Promise<boolean>;
}

const LOCAL_NAMES = /^(localhost|.*\.localhost|.*\.local|.*\.internal)$/i;

/** An IPv4 address written inside IPv6 (mapped `::ffff:a.b.c.d`, SIIT `::ffff:0:…`, compatible `::a.b.c.d`), dotted or in hex as `URL` writes it. */
function embeddedV4(h: string): string | null {
  const dotted = /^::(?:ffff:(?:0{1,4}:)?)?(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (dotted) return dotted[1]!;
  const hex = /^::(?:ffff:(?:0{1,4}:)?)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
  if (!hex) return null;
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * Whether `host` (a URL's hostname, as `new URL` gives it) is this machine or the local network: loopback,
 * private, link-local; a name with its trailing dot too (`localhost.`), and IPv4 written inside IPv6.
 * A name that only resolves to such an address (DNS rebinding) is not seen here: a limit the README names.
 */
export function isLocalHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').replace(/\.+$/, '').toLowerCase();
  if (LOCAL_NAMES.test(h)) return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  if (h.includes(':')) {
    const inner = embeddedV4(h);
    if (inner) return isLocalHost(inner);
    return h === '::1' || h === '::' || /^f[cd][0-9a-f]{2}:/.test(h) || /^fe[89ab][0-9a-f]:/.test(h);
  }
  return false;
}

/**
 * Whether a page on `url` may be fetched for reading where the extension may reach loopback (its manifest grants
 * it, for the local service and the tests): a page on this machine or the local network only from the speech
 * service's own host and port (a developer's local service serving its pages); a remote page always.
 */
export function localReachable(url: URL, serviceUrl: string): boolean {
  if (!isLocalHost(url.hostname)) return true;
  try {
    return new URL(serviceUrl).host === url.host;
  } catch {
    return false;
  }
}

/**
 * Whether a hop from `from` to `to` may be taken: a web address (http or https), never from a remote
 * site into this machine or the local network (a link that leads to the user's router or a local
 * service is not read), and one the extension holds access to.
 */
export async function hopAllowed(from: URL, to: URL, deps: Pick<FetchDeps, 'mayReach'>): Promise<boolean> {
  if (to.protocol !== 'http:' && to.protocol !== 'https:') return false;
  if (to.username || to.password) return false;
  if (isLocalHost(to.hostname) && to.origin !== from.origin) return false;
  return deps.mayReach(to);
}

/**
 * The host could not be reached (no answer, or the connection lost before the body's end): a `network`
 * error, which a reading may wait out (`Reader.untilReachable`) rather than end in.
 */
export class Unreachable extends ReadingError {
  constructor() {
    super('network');
  }
}

/**
 * The answer for `url`, its redirects checked as described above; `ReadingError('redirect-refused')`
 * when one leads where it may not, `Unreachable` when the connection fails.
 */
export async function fetchChecked(url: string, init: RequestInit, deps: FetchDeps): Promise<Response> {
  const start = new URL(url);
  if (!(await hopAllowed(start, start, deps))) throw new ReadingError('permission-denied');
  const attempt = async (at: string, more: RequestInit) => {
    try {
      return await deps.fetch(at, { ...init, ...more });
    } catch (err) {
      if (init.signal?.aborted) throw new ReadingError('timeout');
      throw err instanceof ReadingError ? err : new Unreachable();
    }
  };
  let at = start;
  for (let hop = 0; hop <= MAX_HOPS; hop++) {
    // The first request carries the user's cookies for the address they chose; a hop it leads on to does not.
    const res = await attempt(at.href, hop === 0 ? { redirect: 'manual' } : { redirect: 'manual', credentials: 'omit' });
    if (res.type === 'opaqueredirect') return followByBrowser(at, init, deps, attempt);
    const location = res.status >= 300 && res.status < 400 ? res.headers.get('Location') : null;
    if (location === null) return res;
    void res.body?.cancel().catch(() => undefined);
    const next = new URL(location, at);
    if (!(await hopAllowed(at, next, deps))) throw new ReadingError('redirect-refused');
    at = next;
  }
  throw new ReadingError('redirect-refused');
}

/** The browser follows a chain it will not show: without cookies, then where it ended is checked. */
async function followByBrowser(from: URL, init: RequestInit, deps: FetchDeps, attempt: (at: string, more: RequestInit) => Promise<Response>): Promise<Response> {
  let res: Response;
  try {
    res = await attempt(from.href, { redirect: 'follow', credentials: 'omit' });
  } catch (err) {
    // Most often an address the extension has no access to (the browser's cross-origin rule refused it).
    if (err instanceof ReadingError && err.code === 'network') throw new ReadingError('redirect-refused');
    throw err;
  }
  const ended = new URL(res.url || from.href);
  if (!(await hopAllowed(from, ended, deps))) {
    void res.body?.cancel().catch(() => undefined);
    throw new ReadingError('redirect-refused');
  }
  return res;
}

/**
 * The body of `res`, at most `maxBytes`: refused at once by its Content-Length, else read as it comes
 * and dropped the moment it passes the bound (`ReadingError('too-large')`).
 */
export async function readCapped(res: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(res.headers.get('Content-Length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    void res.body?.cancel().catch(() => undefined);
    throw new ReadingError('too-large');
  }
  if (!res.body) return new Uint8Array(await res.arrayBuffer());
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      throw new Unreachable();
    }
    const { done, value } = next;
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      void reader.cancel().catch(() => undefined);
      throw new ReadingError('too-large');
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** A page's text, at most `maxBytes` of it, in the character set its Content-Type names (UTF-8 else). */
export async function readTextCapped(res: Response, maxBytes: number): Promise<string> {
  const bytes = await readCapped(res, maxBytes);
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(res.headers.get('Content-Type') ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
