/**
 * A book's table of contents as the listener picks from it (pure; runs in the book page): nested entries
 * flattened in reading order, each pointing at a section and, when its link has one, a place in it.
 * A book without one (or with entries that point nowhere) gets an entry per section in the reading order.
 */
import type { FoliateTocItem } from '@/vendor/foliate-js/book';

export interface TocEntry {
  label: string;
  /** Nesting depth (0: top level). */
  depth: number;
  /** The link as the book gives it (resolved to a section by the book). */
  href: string;
}

/** The entries of `toc` in reading order, with their depth. */
export function flattenToc(toc: readonly FoliateTocItem[] | null | undefined, depth = 0): TocEntry[] {
  const out: TocEntry[] = [];
  for (const item of toc ?? []) {
    const label = (item.label ?? '').replace(/\s+/g, ' ').trim();
    if (item.href) out.push({ label, depth, href: item.href });
    out.push(...flattenToc(item.subitems, depth + 1));
  }
  return out;
}

export interface Chapter {
  label: string;
  depth: number;
  /** The section it starts in. */
  section: number;
  /** The element it starts at in that section (null: the section's start). */
  anchor: ((doc: Document) => Element | number | null) | null;
  /** A section out of the reading order (`linear="no"`): read only when chosen. */
  nonLinear: boolean;
}

/**
 * The chapters: the table of contents' entries that resolve to a section, in the order of the book (an entry
 * pointing back before the one above it keeps its place in the list; reading goes on in the book's order).
 * `resolve` is the book's `resolveHref`. No usable entry: one chapter a section, named by `untitled(n)`.
 */
export async function chaptersOf(
  entries: readonly TocEntry[],
  sections: readonly { linear?: string | null }[],
  resolve: (href: string) => unknown,
  untitled: (n: number) => string,
): Promise<Chapter[]> {
  const chapters: Chapter[] = [];
  for (const entry of entries) {
    const to = (await Promise.resolve()
      .then(() => resolve(entry.href))
      .catch(() => null)) as { index?: unknown; anchor?: unknown } | null;
    const index = typeof to?.index === 'number' ? to.index : -1;
    if (index < 0 || index >= sections.length) continue;
    const anchor = typeof to?.anchor === 'function' ? (to.anchor as Chapter['anchor']) : null;
    chapters.push({ label: entry.label || untitled(chapters.length + 1), depth: entry.depth, section: index, anchor, nonLinear: sections[index]?.linear === 'no' });
  }
  if (chapters.length) return chapters;
  return sections.flatMap((s, section) => (s.linear === 'no' ? [] : [{ label: untitled(section + 1), depth: 0, section, anchor: null, nonLinear: false }]));
}
