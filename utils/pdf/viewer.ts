/**
 * The PDF page's viewer (runs in the extension's PDF page): pdf.js's own viewer component, bundled
 * (no remote code), drawing the pages in view with their text layers. It gives the reader what it
 * needs (`PdfView`): the page in view, the selection, the text layer's spans of a drawn page.
 */
import * as pdfjs from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { PageHighlighter } from '../text/highlight';
import type { PdfView } from './pdf-reader';

export interface OpenedPdf {
  doc: PDFDocumentProxy;
  view: PdfView;
  title: string;
  /** Calls `listener` with the page most in view whenever it changes. */
  onPageChange(listener: (page: number) => void): void;
}

/** The file's name from its URL ("report.pdf"), for a document with no title of its own. */
export function fileNameOf(url: string): string {
  try {
    const path = new URL(url).pathname;
    return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)) || url;
  } catch {
    return url;
  }
}

export async function openPdf(container: HTMLDivElement, viewerEl: HTMLDivElement, source: { data: ArrayBuffer }, fileUrl: string): Promise<OpenedPdf> {
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
  // pdf.js's viewer component finds the library on the global object when it loads.
  (globalThis as { pdfjsLib?: unknown }).pdfjsLib = pdfjs;
  const { EventBus, PDFLinkService, PDFViewer } = await import('pdfjs-dist/web/pdf_viewer.mjs');
  const eventBus = new EventBus();
  const linkService = new PDFLinkService({ eventBus });
  const viewer = new PDFViewer({ container, viewer: viewerEl, eventBus, linkService, textLayerMode: 1 });
  linkService.setViewer(viewer);
  const doc = await pdfjs.getDocument({ ...source, enableXfa: false }).promise;
  eventBus.on('pagesinit', () => {
    viewer.currentScaleValue = 'page-width';
  });
  viewer.setDocument(doc);
  linkService.setDocument(doc, null);

  const drawn = new Set<number>();
  const waiting = new Map<number, Array<() => void>>();
  eventBus.on('textlayerrendered', ({ pageNumber }: { pageNumber: number }) => {
    drawn.add(pageNumber);
    waiting.get(pageNumber)?.forEach((w) => w());
    waiting.delete(pageNumber);
  });
  const layerOf = (p: number) => viewerEl.querySelector<HTMLElement>(`.page[data-page-number="${p}"] .textLayer`);
  const highlighter = new PageHighlighter(document, container, false);
  const view: PdfView = {
    currentPage: () => viewer.currentPageNumber || 1,
    selectionText: () => {
      const selection = document.getSelection();
      return selection && container.contains(selection.anchorNode) ? selection.toString() : '';
    },
    spansOf: (p) => {
      const layer = layerOf(p);
      if (!drawn.has(p) || !layer?.isConnected || !layer.firstChild) return null;
      return Array.from(layer.querySelectorAll<HTMLElement>('span[role="presentation"]'));
    },
    showPage: (p) =>
      new Promise<void>((resolve) => {
        if (view.spansOf(p)) return resolve();
        if (!highlighter.following) return resolve();
        (waiting.get(p) ?? waiting.set(p, []).get(p)!).push(resolve);
        viewer.scrollPageIntoView({ pageNumber: p });
        setTimeout(resolve, 5_000);
      }),
    highlighter,
  };
  const info = await doc.getMetadata().catch(() => null);
  const docTitle = (info?.info as { Title?: unknown } | undefined)?.Title;
  return {
    doc,
    view,
    title: typeof docTitle === 'string' && docTitle.trim() ? docTitle.trim() : fileNameOf(fileUrl),
    onPageChange: (listener) => eventBus.on('pagechanging', ({ pageNumber }: { pageNumber: number }) => listener(pageNumber)),
  };
}
