/**
 * The PDF page's own copy of its file (runs in the extension's PDF page), when the background's copy is
 * gone (a reload) or was never made (a file on disk): the same bounds as the background's download — at
 * most `PDF_MAX_BYTES`, and no redirect from a site into this machine or the local network.
 *
 * XMLHttpRequest, not fetch: an extension page reads `file://` only through it (Chromium, with file access).
 * Its `responseURL` tells where a redirect ended once the headers are in, before a byte of the body is read.
 */
import { isLocalHost } from '../net/bounded-fetch';

/** What the page's request needs: an XMLHttpRequest, or a stand-in for one in tests. */
export type Xhr = Pick<XMLHttpRequest, 'open' | 'send' | 'abort' | 'getResponseHeader' | 'readyState' | 'status' | 'response' | 'responseURL' | 'responseType'> & {
  onreadystatechange: (() => void) | null;
  onprogress: ((e: { loaded: number }) => void) | null;
  onload: (() => void) | null;
  onerror: (() => void) | null;
};

/** Why the file was not loaded, as the PDF page's error codes. */
export class LoadError extends Error {
  constructor(readonly code: 'too-large' | 'redirect-refused' | 'network' | 'file-access') {
    super(code);
  }
}

const HEADERS_RECEIVED = 2;

/** The file at `url`, at most `maxBytes`; a `LoadError` otherwise. */
export function loadPdfFile(url: string, maxBytes: number, xhr: Xhr = new XMLHttpRequest() as unknown as Xhr): Promise<ArrayBuffer> {
  const start = new URL(url);
  const failed: LoadError['code'] = start.protocol === 'file:' ? 'file-access' : 'network';
  return new Promise((resolve, reject) => {
    let done = false;
    const fail = (code: LoadError['code']) => {
      if (done) return;
      done = true;
      xhr.abort();
      reject(new LoadError(code));
    };
    xhr.open('GET', url);
    xhr.responseType = 'arraybuffer';
    xhr.onreadystatechange = () => {
      if (xhr.readyState !== HEADERS_RECEIVED) return;
      const ended = xhr.responseURL ? new URL(xhr.responseURL) : start;
      if (ended.origin !== start.origin && isLocalHost(ended.hostname)) return fail('redirect-refused');
      if (Number(xhr.getResponseHeader('Content-Length')) > maxBytes) fail('too-large');
    };
    xhr.onprogress = (e) => {
      if (e.loaded > maxBytes) fail('too-large');
    };
    xhr.onload = () => {
      if (done) return;
      // A file on disk answers 0.
      const ok = xhr.status === 200 || (xhr.status === 0 && start.protocol === 'file:');
      const body = xhr.response as ArrayBuffer | null;
      // Nothing at all (a file on disk the browser would not give) is no PDF either.
      if (!ok || !body?.byteLength) return fail(failed);
      if (body.byteLength > maxBytes) return fail('too-large');
      done = true;
      resolve(body);
    };
    xhr.onerror = () => fail(failed);
    xhr.send();
  });
}
