/**
 * PRIVACY.md, as the options page links to it: the repository's own text, built in (headings, paragraphs and
 * lists; `code` spans and **bold** as such), never fetched.
 */
import text from '../../PRIVACY.md?raw';
import '../popup/popup.css';
import '../options/options.css';

const main = document.getElementById('app')!;
/** Inline marks: `code` and **strong**, as text nodes and elements (never HTML from the file). */
function inline(into: HTMLElement, line: string): void {
  for (const piece of line.split(/(`[^`]+`|\*\*[^*]+\*\*)/)) {
    if (piece.startsWith('`') && piece.endsWith('`') && piece.length > 1) into.append(Object.assign(document.createElement('code'), { textContent: piece.slice(1, -1) }));
    else if (piece.startsWith('**') && piece.endsWith('**') && piece.length > 3) into.append(Object.assign(document.createElement('strong'), { textContent: piece.slice(2, -2) }));
    else into.append(piece);
  }
}
let list: HTMLUListElement | null = null;
for (const block of text.split(/\n\s*\n/)) {
  const lines = block.split('\n');
  const heading = /^(#{1,3})\s+(.*)$/.exec(lines[0] ?? '');
  if (heading) {
    const h = document.createElement(`h${heading[1]!.length}`);
    inline(h, heading[2]!);
    main.append(h);
    continue;
  }
  if (lines[0]?.startsWith('- ')) {
    list = document.createElement('ul');
    // A list item runs on over its indented lines.
    for (const item of block.split(/\n(?=- )/)) {
      const li = document.createElement('li');
      inline(li, item.replace(/^- /, '').replace(/\n\s+/g, ' '));
      list.append(li);
    }
    main.append(list);
    continue;
  }
  const p = document.createElement('p');
  inline(p, block.replace(/\n/g, ' '));
  main.append(p);
}
