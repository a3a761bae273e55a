import { render } from 'preact';
import { BookBar } from '@/components/BookBar';
import { i18n, uiLocale } from '@/utils/pages/i18n';
import { BookPage } from '@/utils/book/page';
import { HIGHLIGHT_CSS } from '@/utils/text/highlight';
import { readingViewStorage } from '@/utils/reading/state';
import './book.css';

// The book page: a book picked or dropped here, or at an address (`book.html?file=URL`; `&id=` the copy the
// background fetched for a link's "Read this book aloud").
const locale = uiLocale();
document.documentElement.lang = locale.slice(0, 2);
document.head.append(Object.assign(document.createElement('style'), { textContent: HIGHLIGHT_CSS }));
const page = new BookPage(document.getElementById('book-text')!, (n) => i18n.t('bookSection', { n }), browser.i18n.getUILanguage(), (cb) => readingViewStorage.watch(cb));
const params = new URLSearchParams(location.search);
const file = params.get('file');
const kept = params.get('book');
if (file) void page.openUrl(file, params.get('id'), params.get('error'));
// A book kept on this computer, opened again by its address (from the history, or a bookmark).
else if (kept) void page.openKept(kept);
render(<BookBar page={page} />, document.getElementById('app')!);
