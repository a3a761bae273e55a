/**
 * Third-party code built without what addons.mozilla.org's linter (`web-ext lint`) warns of: HTML written
 * into an element as a string (`innerHTML = …`) and `import()` of an address made at run time. Each place
 * is one the extension never needs as written, and each patch says why; the build fails when a patched
 * file no longer has the code it patches (a new version of the library: look again), so no patch is lost
 * silently.
 *
 * - Readability writes HTML strings twice: putting the page back between attempts, and unwrapping a
 *   `<noscript>` image. Both go through `_replaceHTML`, which parses the string with `DOMParser` (an inert
 *   document: no script runs, nothing loads) and moves its nodes in. Readability only ever runs on a copy
 *   of the page or on a page parsed for the queue; `utils/text/quick-readability.ts` answers the first
 *   place itself by making the copy again.
 * - Preact writes `dangerouslySetInnerHTML`; no component of ours uses it, and it now throws if one did.
 * - pdf.js's viewer writes a translated string with markup into a `<template>`: parsed the same way. It
 *   imports a sandbox to run a PDF's own scripts; the extension runs none (no scripting manager is given),
 *   and that import now fails as the sandbox's loading may. Its
 *   "fake worker" imports the worker script on the page when no worker can be started; both browsers
 *   start the worker (the PDF tests read through it), so a fake worker is an error, as pdf.js reports
 *   any worker failure. Its worker imports a JavaScript image decoder from `wasmUrl` when WebAssembly
 *   fails; the extension sets no `wasmUrl` (that import could only fail), and JPEG 2000 and JBIG2 images
 *   are drawn blank as they are without it. Their text is read either way.
 * - zip.js imports a codec module from `codecURI` for formats the browser cannot inflate; the book page
 *   opens only zips the browser's own `DecompressionStream` inflates (deflate, stored), sets no codec, and
 *   that import now fails as a missing codec does (the book is then `bad-book`).
 */
import type { Plugin } from 'vite';

interface Patch {
  /** The module (its resolved path) or emitted file (its name) the patch is for. */
  file: RegExp;
  find: string | RegExp;
  replace: string;
}

const PARSED = (html: string) => `new DOMParser().parseFromString("<!doctype html><html><head></head><body>" + ${html}, "text/html").body`;

export const VENDOR_PATCHES: readonly Patch[] = [
  { file: /@mozilla\/readability\/Readability\.js$/, find: 'page.innerHTML = pageCacheHtml;', replace: 'this._replaceHTML(page, pageCacheHtml);' },
  { file: /@mozilla\/readability\/Readability\.js$/, find: 'tmp.innerHTML = noscript.innerHTML;', replace: 'this._replaceHTML(tmp, noscript.innerHTML);' },
  {
    file: /@mozilla\/readability\/Readability\.js$/,
    find: 'if (typeof module === "object") {',
    // Imported into the element's own document (a copy of the page, or one parsed for the queue), not moved across.
    replace: `Readability.prototype._replaceHTML = function (element, html) {\n  var doc = element.ownerDocument;\n  element.replaceChildren(...Array.from(${PARSED('html')}.childNodes, function (node) { return doc.importNode(node, true); }));\n};\n\nif (typeof module === "object") {`,
  },
  { file: /preact\/dist\/preact\.(?:module\.js|mjs)$/, find: /\((\w+)\.innerHTML=(\w+)\.__html\)/, replace: '(()=>{throw Error("dangerouslySetInnerHTML is not used here")})()' },
  {
    file: /pdfjs-dist\/web\/pdf_viewer\.mjs$/,
    find: /const templateElement = [^;]+;\s*templateElement\.innerHTML = value;\s*overlayChildNodes\(templateElement\.content, element\);/,
    replace: `overlayChildNodes(${PARSED('value')}, element);`,
  },
  {
    file: /pdfjs-dist\/web\/pdf_viewer\.mjs$/,
    find: /import\(\s*\/\*webpackIgnore: true\*\/\s*\/\*@vite-ignore\*\/\s*sandboxBundleSrc\)/,
    replace: 'Promise.reject(new Error("scripts in PDFs are not run"))',
  },
  {
    file: /pdfjs-dist\/build\/pdf\.mjs$/,
    find: /await import\(\s*\/\*webpackIgnore: true\*\/\s*\/\*@vite-ignore\*\/\s*this\.workerSrc\)/,
    replace: 'await Promise.reject(new Error("pdf.js runs in its worker only"))',
  },
  {
    file: /pdf\.worker(?:\.min)?[-.\w]*\.mjs$/,
    find: /await\(?import\(\s*\/\*webpackIgnore: true\*\/\s*\/\*@vite-ignore\*\/\s*`\$\{WasmImage\.#\w+\}\$\{this\._noWasmFilename\}`\)\)?/,
    replace: 'await Promise.reject(new Error("no wasmUrl is set"))',
  },
  {
    file: /@zip\.js\/zip\.js\/lib\/core\/codec-registry\.js$/,
    find: 'await import(/* webpackIgnore: true */ /* @vite-ignore */ codecURI)',
    replace: 'await Promise.reject(new Error("no codec module is loaded"))',
  },
];

/** `code` with every patch for `file` applied; throws when one finds nothing to patch. */
export function patched(file: string, code: string): string {
  let out = code;
  for (const patch of VENDOR_PATCHES) {
    if (!patch.file.test(file)) continue;
    const found = typeof patch.find === 'string' ? out.includes(patch.find) : patch.find.test(out);
    if (!found) throw new Error(`scripts/vendor-patches.ts: ${file} no longer has ${String(patch.find)} (a new version? look again)`);
    out = typeof patch.find === 'string' ? out.replace(patch.find, () => patch.replace) : out.replace(patch.find, () => patch.replace);
  }
  return out;
}

/** The patches as a Vite plugin: modules as they load, and emitted assets (pdf.js's worker is copied as it is). */
export function vendorPatches(): Plugin {
  return {
    name: 'trysasha:vendor-patches',
    enforce: 'pre',
    transform(code, id) {
      // An import with a query (`?url`) is not the module's code.
      if (id.includes('?')) return null;
      return VENDOR_PATCHES.some((p) => p.file.test(id)) ? { code: patched(id, code), map: null } : null;
    },
    generateBundle(_options, bundle) {
      for (const out of Object.values(bundle)) {
        if (out.type !== 'asset' || !VENDOR_PATCHES.some((p) => p.file.test(out.fileName))) continue;
        out.source = patched(out.fileName, typeof out.source === 'string' ? out.source : new TextDecoder().decode(out.source));
      }
    },
  };
}
