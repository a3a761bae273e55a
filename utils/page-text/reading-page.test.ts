import { describe, expect, it } from 'vitest';
import { samePage } from './reading-page';

const PDF = 'chrome-extension://abc/pdf.html';
const pdfPage = (u: string) => u.startsWith(PDF);
const BOOK = 'chrome-extension://abc/book.html';
const bookPage = (u: string) => u.startsWith(BOOK);

describe('the tab still shows the page being read', () => {
  it.each([
    ['the same address', 'https://a.ru/x', 'https://a.ru/x', true],
    ['a jump within the page', 'https://a.ru/x#part-2', 'https://a.ru/x', true],
    ['the page read from a jump', 'https://a.ru/x', 'https://a.ru/x#top', true],
    ['another page of the site', 'https://a.ru/y', 'https://a.ru/x', false],
    ['another site', 'https://evil.example/', 'https://a.ru/x', false],
    ['an address no longer visible (no access there)', undefined, 'https://a.ru/x', false],
    ['the PDF page showing the PDF read', `${PDF}?file=${encodeURIComponent('https://a.ru/doc.pdf')}&id=1`, 'https://a.ru/doc.pdf', true],
    ['the PDF page showing another PDF', `${PDF}?file=${encodeURIComponent('https://a.ru/other.pdf')}&id=1`, 'https://a.ru/doc.pdf', false],
    ['the book page showing the book read (from a file, or from a link)', `${BOOK}?file=${encodeURIComponent('https://a.ru/b.epub')}&book=f00d`, `${BOOK}?book=f00d&start=c2`, true],
    ['the book page showing another book', `${BOOK}?book=beef`, `${BOOK}?book=f00d&start=c2`, false],
    ['the book page, and a reading of a web page', `${BOOK}?book=f00d`, 'https://a.ru/x?book=f00d', false],
    ['a reading whose page is not known (the menu\'s text, before 2026-12-02): on no page', 'https://a.ru/x', '', false],
  ])('%s', (_n, now, page, same) => expect(samePage(now, page, pdfPage, bookPage)).toBe(same));
});
