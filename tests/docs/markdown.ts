/**
 * What the docs check reads in Markdown: the headings a link may point at (as GitHub makes their anchors),
 * the relative links a file holds, and whether each one leads somewhere. Pure but for `resolveLink`'s
 * `files`, passed in, so the unit test runs on a table of made-up files.
 */
import { dirname, join, normalize, sep } from 'node:path';

/** A heading's anchor as GitHub makes it: lower case, punctuation and symbols dropped, each space a hyphen. */
export function slugOf(heading: string): string {
  const text = heading
    // A link shows its text; code, emphasis and HTML tags show what they hold.
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** The lines of `markdown` outside fenced code blocks, each with its line number (1-based). */
function proseLines(markdown: string): Array<{ line: string; n: number }> {
  const out: Array<{ line: string; n: number }> = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((line, i) => {
    const opens = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (opens) {
      if (fence === null) fence = opens[1]![0]!;
      else if (opens[1]![0] === fence) fence = null;
      return;
    }
    if (fence === null) out.push({ line, n: i + 1 });
  });
  return out;
}

/** Every heading's anchor, in order; a repeated heading gets `-1`, `-2` … as on GitHub. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const { line } of proseLines(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = slugOf(heading[1]!);
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    anchors.add(times ? `${slug}-${times}` : slug);
  }
  // Anchors written by hand (`<a id="…">`, `<a name="…">`) are targets too.
  for (const m of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  return anchors;
}

export interface Link {
  target: string;
  line: number;
}

/** The links of `markdown` that point into the repository: inline links, images and reference definitions; not code. */
export function relativeLinksOf(markdown: string): Link[] {
  const links: Link[] = [];
  for (const { line, n } of proseLines(markdown)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: m[1]!, line: n });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(prose);
    if (definition) links.push({ target: definition[1]!, line: n });
  }
  return links.filter(({ target }) => target !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//'));
}

/** What `resolveLink` needs of the files: whether a path is a file or a folder, and a Markdown file's text. */
export interface Files {
  kind(path: string): 'file' | 'dir' | null;
  read(path: string): string;
}

/**
 * Why the link `target`, written in file `from` (both relative to the repository's root), leads nowhere;
 * null when it leads to a file or folder of the repository, and to a heading there for an `#anchor`.
 */
export function resolveLink(from: string, target: string, files: Files): string | null {
  const hash = target.indexOf('#');
  const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
  const path = pathPart === '' ? from : normalize(join(dirname(from), pathPart)).replace(/(.)\/+$/, '$1');
  if (path === '..' || path.startsWith(`..${sep}`)) return `${target}: outside the repository (GitHub cannot follow it)`;
  const kind = files.kind(path);
  if (kind === null) return `${target}: no such file or folder (${path})`;
  if (anchor === null) return null;
  if (kind !== 'file' || !path.endsWith('.md')) return `${target}: an anchor on something that is not a Markdown file`;
  if (anchor === '') return `${target}: an empty anchor`;
  return anchorsOf(files.read(path)).has(anchor) ? null : `${target}: no heading "#${anchor}" in ${path}`;
}
