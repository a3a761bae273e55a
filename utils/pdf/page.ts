/**
 * The PDF page's start (runs in the extension's PDF page, `pdf.html?file=URL&id=ID`): answers the
 * background at once (its requests wait for the document), then opens the file the background
 * fetched for it, or its own copy when that one is gone (a reload) or was never made (a file on disk).
 */
import { NOT_AT, onPageRequest } from '../messaging/content';
import { takePdf } from '../storage/pdf-files';
import { PdfReader } from './pdf-reader';
import { PdfText } from './pdf-text';
import { fileNameOf, type OpenedPdf, openPdf } from './viewer';
import { LoadError, loadPdfFile } from './load-file';
import { PDF_MAX_BYTES } from '../net/bounded-fetch';

export interface PdfSession {
  opened: OpenedPdf;
  text: PdfText;
  reader: PdfReader;
  fileUrl: string;
}

/** Why the PDF could not be opened, as an error code (`bad-pdf`, `file-access`, `network`, `too-large`, `redirect-refused`). */
export class PdfOpenError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

export function startPdfPage(container: HTMLDivElement, viewerEl: HTMLDivElement, search = location.search): Promise<PdfSession> {
  const params = new URLSearchParams(search);
  const fileUrl = params.get('file') ?? '';
  const id = params.get('id') ?? '';
  const ready = (async (): Promise<PdfSession> => {
    if (!fileUrl) throw new PdfOpenError('no-text');
    let data = id ? await takePdf(id, fileUrl).catch(() => null) : null;
    // No copy from the background: the page's own, within the same bounds (a file:// URL without access, or the network, fails).
    data ??= await loadPdfFile(fileUrl, PDF_MAX_BYTES).catch((err: unknown) => {
      throw new PdfOpenError(err instanceof LoadError ? err.code : 'network');
    });
    let opened: OpenedPdf;
    try {
      opened = await openPdf(container, viewerEl, { data }, fileUrl);
    } catch {
      throw new PdfOpenError('bad-pdf');
    }
    const text = new PdfText(opened.doc);
    return { opened, text, reader: new PdfReader(text, opened.view, () => opened.title, fileNameOf(fileUrl), fileUrl), fileUrl };
  })();
  // The background may ask before the document is open: its requests wait for it.
  const withReader = async <T>(f: (reader: PdfReader) => T | Promise<T>): Promise<T> => {
    try {
      return await f((await ready).reader);
    } catch (err) {
      throw err instanceof PdfOpenError ? new Error(err.code) : err;
    }
  };
  // An early ask names the page it was meant for (`at`): never this one (the PDF page is never asked early).
  onPageRequest('extract', ({ data }) => (data.at !== undefined ? Promise.reject(new Error(NOT_AT)) : withReader((r) => r.extract())));
  onPageRequest('extractMore', ({ data }) => withReader((r) => r.more(data.after)));
  onPageRequest('highlight', ({ data }) => withReader((r) => r.highlight(data.block, data.text, data.word)));
  onPageRequest('clearHighlight', () => withReader((r) => r.clear()));
  return ready;
}
