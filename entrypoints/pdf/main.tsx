import { render } from 'preact';
import { PdfToolbar } from '@/components/PdfToolbar';
import { uiLocale } from '@/utils/pages/i18n';
import { startPdfPage } from '@/utils/pdf/page';
import 'pdfjs-dist/web/pdf_viewer.css';
import './pdf.css';

// The PDF page: the background opens it in the tab that showed a PDF (`pdf.html?file=URL&id=ID`).
const locale = uiLocale();
document.documentElement.lang = locale.slice(0, 2);
const ready = startPdfPage(document.getElementById('viewerContainer') as HTMLDivElement, document.getElementById('viewer') as HTMLDivElement);
render(<PdfToolbar ready={ready} locale={locale} />, document.getElementById('app')!);
