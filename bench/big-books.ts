/**
 * Books for the bench's `books` step (issue 62), made here from the generated Russian sentences of
 * `tests/fixtures/make-article.ts` (no real text): a 10 MB FB2 and a 10 MB EPUB (its chapters' text compressed,
 * ten 1 MB pictures stored, as a real illustrated EPUB's bulk is), and a book of about an hour of audio for the
 * memory row. None is committed: each is made in memory at the bench's start.
 */
import { randomBytes } from 'node:crypto';
import JSZip from 'jszip';
import { makeSentences } from '../tests/fixtures/make-article.ts';

export const BIG_BOOK_TITLE = 'Большая книга';

/** `n` chapters of about `chars` characters each, as paragraphs. */
function chapters(n: number, chars: number): string[][] {
  const all = makeSentences(n * chars).map((p) => p.join(' '));
  const per = Math.ceil(all.length / n);
  return Array.from({ length: n }, (_, c) => all.slice(c * per, (c + 1) * per));
}

/** An FB2 of `n` chapters (sections) of about `chars` characters. 60 × 95,000: ~10 MB (Cyrillic is two bytes a letter). */
export function bigFb2(n = 60, chars = 95_000, title = BIG_BOOK_TITLE): Uint8Array {
  const body = chapters(n, chars)
    .map((ps, c) => `<section><title><p>Глава ${c + 1}</p></title>${ps.map((p) => `<p>${p}</p>`).join('')}</section>`)
    .join('\n');
  return new TextEncoder().encode(
    `<?xml version="1.0" encoding="utf-8"?><FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0" xmlns:l="http://www.w3.org/1999/xlink"><description><title-info><author><nickname>bench</nickname></author><book-title>${title}</book-title><lang>ru</lang></title-info></description><body>${body}</body></FictionBook>`,
  );
}

/** An EPUB 3 of 60 chapters (one file each, in the contents) and ten 1 MB pictures: ~10 MB (the text compresses to little). */
export async function bigEpub(): Promise<Uint8Array> {
  const z = new JSZip();
  z.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  z.file('META-INF/container.xml', `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="c.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`);
  const chs = chapters(60, 40_000);
  chs.forEach((ps, i) =>
    z.file(`ch${i}.xhtml`, `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${i + 1}</title></head><body><h1>Глава ${i + 1}</h1>${ps.map((p) => `<p>${p}</p>`).join('')}</body></html>`),
  );
  const pictures = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  for (const i of pictures) z.file(`img${i}.jpg`, randomBytes(1_000_000), { compression: 'STORE' });
  z.file('nav.xhtml', `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>t</title></head><body><nav epub:type="toc"><ol>${chs.map((_, i) => `<li><a href="ch${i}.xhtml">Глава ${i + 1}</a></li>`).join('')}</ol></nav></body></html>`);
  z.file(
    'c.opf',
    `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">big</dc:identifier><dc:title>${BIG_BOOK_TITLE}</dc:title><dc:language>ru</dc:language></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>${chs.map((_, i) => `<item id="c${i}" href="ch${i}.xhtml" media-type="application/xhtml+xml"/>`).join('')}${pictures.map((i) => `<item id="i${i}" href="img${i}.jpg" media-type="image/jpeg"/>`).join('')}</manifest><spine>${chs.map((_, i) => `<itemref idref="c${i}"/>`).join('')}</spine></package>`,
  );
  return new Uint8Array(await z.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
}
