/**
 * The PDF page's start (runs in the extension's PDF page, `pdf.html?file=URL&id=ID`): answers the
 * background at once (its requests wait for the document), then opens the file the background
 * fetched for it, or the URL itself when that copy is gone (a reload, a loopback file).
 */
import { NOT_AT, onPageRequest } from '../messaging/content';
import { takePdf } from '../storage/pdf-files';
import { PdfReader } from './pdf-reader';
import { PdfText } from './pdf-text';
import { fileNameOf, type OpenedPdf, openPdf } from './viewer';

export interface PdfSession {
  opened: OpenedPdf;
  text: PdfText;
  reader: PdfReader;
  fileUrl: string;
}

/** Why the PDF could not be opened, as an error code (`bad-pdf`, `file-access`, `network`). */
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
    const data = id ? await takePdf(id, fileUrl).catch(() => null) : null;
    let opened: OpenedPdf;
    try {
      opened = await openPdf(container, viewerEl, data ? { data } : { url: fileUrl }, fileUrl);
    } catch (err) {
      const name = (err as { name?: string } | null)?.name ?? '';
      // No copy from the background and the URL cannot be fetched from here: a file:// URL without access, or the network.
      throw new PdfOpenError(/MissingPDF|UnexpectedResponse|Fetch|Network/i.test(name) || !data ? (fileUrl.startsWith('file:') ? 'file-access' : 'network') : 'bad-pdf');
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
