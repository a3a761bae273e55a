import { describe, expect, it } from 'vitest';
import { loadPdfFile, type Xhr } from './load-file';

/** What the browser's request does: headers (after the redirects it followed), then the body in chunks. */
function fakeXhr(answer: { status: number; endedAt?: string; length?: number; chunks: number[] }) {
  const seen = { aborted: false, bodyRead: 0 };
  const xhr: Xhr = {
    readyState: 0,
    status: 0,
    response: null,
    responseURL: '',
    responseType: '',
    onreadystatechange: null,
    onprogress: null,
    onload: null,
    onerror: null,
    open(_m: string, url: string | URL) {
      (xhr as { responseURL: string }).responseURL = answer.endedAt ?? String(url);
    },
    send() {
      queueMicrotask(() => {
        Object.assign(xhr, { readyState: 2, status: answer.status });
        xhr.onreadystatechange?.();
        let loaded = 0;
        for (const n of answer.chunks) {
          if (seen.aborted) return;
          loaded += n;
          seen.bodyRead = loaded;
          xhr.onprogress?.({ loaded });
        }
        if (seen.aborted) return;
        Object.assign(xhr, { readyState: 4, response: new ArrayBuffer(loaded) });
        xhr.onload?.();
      });
    },
    abort() {
      seen.aborted = true;
    },
    getResponseHeader: (name: string) => (name === 'Content-Length' && answer.length !== undefined ? String(answer.length) : null),
  } as Xhr;
  return { xhr, seen };
}

describe("the PDF page's own copy of its file", () => {
  it.each([
    ['a file under the bound', 'https://a.ru/x.pdf', { status: 200, chunks: [400, 400] }, null, 800],
    ['a file on disk (status 0)', 'file:///home/u/x.pdf', { status: 0, chunks: [500] }, null, 500],
    ['declared bigger than the bound: nothing of it read', 'https://a.ru/x.pdf', { status: 200, length: 5_000, chunks: [400] }, 'too-large', 0],
    ['bigger than the bound, undeclared: dropped as it passes', 'https://a.ru/x.pdf', { status: 200, chunks: [600, 600, 600] }, 'too-large', 1_200],
    ['a redirect from the site into loopback: nothing of it read', 'https://a.ru/x.pdf', { status: 200, endedAt: 'http://127.0.0.1:8080/x.pdf', chunks: [400] }, 'redirect-refused', 0],
    ['a redirect to another site on the web', 'https://a.ru/x.pdf', { status: 200, endedAt: 'https://cdn.a.ru/x.pdf', chunks: [400] }, null, 400],
    ['a local file server the user opened', 'http://127.0.0.1:8000/x.pdf', { status: 200, chunks: [400] }, null, 400],
    ['an error answer', 'https://a.ru/x.pdf', { status: 404, chunks: [100] }, 'network', 100],
    ['a file on disk without access', 'file:///home/u/x.pdf', { status: 0, chunks: [] }, 'file-access', 0],
  ] as const)('%s', async (_n, url, answer, code, read) => {
    const { xhr, seen } = fakeXhr({ ...answer, chunks: [...answer.chunks] });
    const loading = loadPdfFile(url, 1_000, xhr);
    if (code === null) expect((await loading).byteLength).toBe(read);
    else await expect(loading).rejects.toMatchObject({ code });
    expect(seen.bodyRead).toBe(read);
  });
});
