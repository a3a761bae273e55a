/**
 * The popup's page as built, its bundle held back: Vite writes the bundle's module script and the modules it
 * preloads into the page's head, where they load at once. In Chrome the popup shares its renderer with the
 * offscreen player, and the bundle's fetch, compile and first drawing ran on the same two cores as the
 * start of the reading the popup's opening asks for. The tags are moved, as they are, into an inert
 * `<template>`; `popup-start.js` puts them back once the background answers that the reading is under way
 * (`utils/pages/popup-start.ts` `loadBundle`). The stylesheet stays: the page's first frame is drawn with it.
 * The page's comments are for its source, and are not shipped (the popup's bytes have a budget: ≤ 25 KB gzip).
 */
import type { Plugin } from 'vite';
import { BUNDLE_TEMPLATE_ID } from '../utils/pages/popup-start';

const MODULE_SCRIPT = /<script type="module"[^>]*\ssrc="[^"]+"[^>]*><\/script>\s*/g;
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>\s*/g;

/** `html` with its module script and module preloads in `<template id="bundle">`, where the script stood. */
export function holdBundle(html: string): string {
  const scripts = html.match(MODULE_SCRIPT) ?? [];
  if (scripts.length !== 1) throw new Error(`scripts/popup-bundle-later.ts: the popup's page has ${scripts.length} module scripts, not 1 (did Vite change how it writes the page?)`);
  const preloads = html.match(MODULE_PRELOAD) ?? [];
  const held = [...preloads, ...scripts].map((tag) => tag.trim()).join('');
  return html.replace(MODULE_PRELOAD, '').replace(MODULE_SCRIPT, () => `<template id="${BUNDLE_TEMPLATE_ID}">${held}</template>\n    `);
}

/** `html` without its comments. */
export function withoutComments(html: string): string {
  return html.replace(/[ \t]*<!--[^]*?-->\n?/g, '');
}

/** Vite's last word on `entrypoints/popup/index.html` in a build (the dev server serves the page as written). */
export function popupBundleLater(): Plugin {
  return {
    name: 'trysasha:popup-bundle-later',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) => (/(^|\/)entrypoints\/popup\/index\.html$/.test(ctx.filename) ? holdBundle(withoutComments(html)) : html),
    },
  };
}
