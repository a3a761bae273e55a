/**
 * The part of foliate-js's book object this extension uses (the same shape from each parser:
 * `epub.js`'s EPUB, `fb2.js`'s makeFB2, `mobi.js`'s MOBI). Written here; foliate-js ships no types.
 */
export type LangMap = string | Record<string, string>;
export type Contributor = string | { name: LangMap; sortAs?: LangMap | null; role?: string | string[] };

export interface FoliateSection {
  id: string | number;
  /** The section as a document of its own (XHTML, or HTML for an EPUB whose file is not well-formed XML). */
  createDocument(): Document | Promise<Document>;
  size: number;
  /** 'no': a section out of the reading order (notes, an answer key). */
  linear?: string | null;
}

export interface FoliateTocItem {
  label: string;
  href: string;
  subitems?: FoliateTocItem[] | null;
}

export interface FoliateHref {
  index: number;
  /** The element the link points to in its section's document (0 or null: the section's start). */
  anchor(doc: Document): Element | number | null;
}

export interface FoliateBook {
  metadata?: { title?: LangMap; author?: Contributor | Contributor[]; language?: string | string[] };
  sections: FoliateSection[];
  toc?: FoliateTocItem[] | null;
  resolveHref(href: string): FoliateHref | null | Promise<FoliateHref | null>;
  destroy?(): void;
}
