/**
 * The saved pages of 2024–26 and their hand-written texts (`tests/fixtures/pages-2026/`, issue 61) hold together:
 * every page has its text, its shape and a row in the folder's README; no script but JSON-LD was kept; and every
 * line of a text is words the page shows (whitespace collapsed, `<br>` a space, footnote marks optionally left out).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { PAGES_2026, pages2026Dir } from '../fixtures/pages-2026';

const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'SVG', 'IFRAME', 'OBJECT', 'SELECT', 'TEXTAREA', 'TITLE', 'MATH']);
const INLINE = new Set(['A', 'ABBR', 'B', 'BDI', 'BDO', 'CITE', 'CODE', 'DATA', 'DFN', 'EM', 'FONT', 'I', 'IMG', 'KBD', 'MARK', 'Q', 'S', 'SAMP', 'SMALL', 'SPAN', 'STRONG', 'SUB', 'SUP', 'TIME', 'U', 'VAR', 'WBR', 'DEL', 'INS', 'STRIKE', 'TT', 'BIG', 'NOBR']);
const collapse = (s: string) => s.replace(/\u00ad|\u200b|\u200c|\u200d|\u2060|\ufeff/g, '').replace(/[\s\u00a0]+/g, ' ').trim();
/** A footnote or reference mark: a <sup> holding only "1", "[12]", "(a)", "*" or "†". */
const isMark = (el: Element) => /^\s*[[(]?\s*(\d{1,3}|[a-z]|[*†‡])\s*[\])]?\s*$/i.test(el.textContent ?? '');

/** The page's visible text, whitespace collapsed, a space at every boundary of an element that is not inline. */
function pageText(html: string, dropMarks: boolean): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === 3) return void parts.push((node as Text).data);
    if (node.nodeType !== 1 && node.nodeType !== 9) return;
    const name = node.nodeType === 1 ? (node as Element).tagName.toUpperCase() : '';
    if (SKIP.has(name) || (dropMarks && name === 'SUP' && isMark(node as Element))) return;
    if (name === 'BR') return void parts.push(' ');
    const block = name !== '' && !INLINE.has(name);
    if (block) parts.push(' ');
    for (const child of Array.from(node.childNodes)) walk(child);
    if (block) parts.push(' ');
  };
  walk(parseHTML(html).document);
  return collapse(parts.join(''));
}

const files = readdirSync(pages2026Dir);
const pages = files.filter((f) => f.endsWith('.html')).map((f) => f.slice(0, -'.html'.length)).sort();
const readme = readFileSync(join(pages2026Dir, 'README.md'), 'utf8');

describe('the saved pages of 2024–26', () => {
  it('each has its text, its shape and its README row, and the folder stays small', () => {
    expect(pages.length).toBeGreaterThanOrEqual(30);
    expect(pages).toEqual(Object.keys(PAGES_2026).sort());
    for (const name of pages) {
      expect(files, name).toContain(`${name}.txt`);
      expect(readme, name).toContain(`| \`${name}\` |`);
      expect(statSync(join(pages2026Dir, `${name}.html`)).size, name).toBeLessThan(600 * 1024);
    }
    expect(files.filter((f) => f.endsWith('.txt')).map((f) => f.slice(0, -4)).sort()).toEqual(pages);
  });

  it.each(pages)('%s: no script but JSON-LD, and every line of its text is on the page', (name) => {
    const html = readFileSync(join(pages2026Dir, `${name}.html`), 'utf8');
    for (const [, attrs] of html.matchAll(/<script\b([^>]*)>/gi)) expect(attrs, name).toMatch(/type\s*=\s*["']?application\/ld\+json/i);
    const text = pageText(html, false);
    const unmarked = pageText(html, true);
    const lines = readFileSync(join(pages2026Dir, `${name}.txt`), 'utf8').replace(/\n$/, '').split('\n');
    const missing = lines.filter((line) => !line || line !== collapse(line) || (!text.includes(line) && !unmarked.includes(line)));
    expect(missing).toEqual([]);
  });
});
