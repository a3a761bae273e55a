import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { patched } from '../../scripts/vendor-patches';

const require = createRequire(import.meta.url);
const source = (spec: string) => {
  // Preact's package exports no file by its path: found beside its main file.
  const file = spec.startsWith('preact/') ? join(dirname(require.resolve('preact')), basename(spec)) : require.resolve(spec);
  return { file, code: readFileSync(file, 'utf8') };
};

/** What web-ext lint warns of: HTML written as a string into an element, an import of a computed address. */
const UNSAFE = [/\.innerHTML\s*=(?!=)\s*(?!["'`]{2}|["'`][^"'`]*["'`]\s*[;,)])/, /\bimport\(\s*(?:\/\*[^*]*\*\/\s*)*(?!["'])[\w`$.#]/];

describe('the dependencies as the build patches them (scripts/vendor-patches.ts)', () => {
  it.each([
    '@mozilla/readability/Readability.js',
    'preact/dist/preact.module.js',
    'preact/dist/preact.mjs',
    'pdfjs-dist/web/pdf_viewer.mjs',
    'pdfjs-dist/build/pdf.mjs',
    'pdfjs-dist/build/pdf.worker.min.mjs',
  ])('%s: found unsafe as installed, safe as patched', (spec) => {
    const { file, code } = source(spec);
    expect(UNSAFE.some((re) => re.test(code))).toBe(true);
    const out = patched(file, code);
    for (const re of UNSAFE) expect(out.match(re)?.[0]).toBeUndefined();
  });

  it('a patched file that no longer has the code it patches stops the build', () => {
    expect(() => patched('/x/node_modules/@mozilla/readability/Readability.js', 'function Readability() {}')).toThrow(/no longer has/);
  });

  it("Readability's HTML goes in parsed, not as a string: what the page said is what the element holds", () => {
    const { file, code } = source('@mozilla/readability/Readability.js');
    expect(patched(file, code)).toContain('Readability.prototype._replaceHTML');
  });
});

describe('Readability as patched, on a page', () => {
  it("unwraps a <noscript> image through _replaceHTML: the real picture replaces the placeholder", async () => {
    const { parseHTML } = await import('linkedom');
    const { Readability } = await import('@mozilla/readability');
    const text = '<p>' + 'A paragraph of the article, long enough to be kept by Readability. '.repeat(12) + '</p>';
    const { document } = parseHTML(`<html><body><article>${text}<div><img src="placeholder.gif"></div><noscript><img src="real.jpg"></noscript>${text}</article></body></html>`);
    const article = new Readability(document as unknown as Document).parse();
    // The picture shown is the real one (the placeholder's address kept aside as data-old-src, as Readability does).
    expect(article?.content).toMatch(/<img[^>]* src="real\.jpg"/i);
    expect(article?.content).not.toMatch(/<img[^>]* src="placeholder\.gif"/i);
  });
});
