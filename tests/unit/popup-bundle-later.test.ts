import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateChromeMessages, parseMessagesFile } from '@wxt-dev/i18n/build';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { holdBundle, withoutComments } from '../../scripts/popup-bundle-later';
import { BUNDLE_TEMPLATE_ID, loadBundle, writeOpening } from '../../utils/pages/popup-start';

/** The popup's page as Vite writes it (the shape of `.output/chrome-mv3/popup.html`, names shortened). */
const BUILT = `<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8">
    <title>trySasha Reader</title>
    <script src="/popup-start.js"></script>
    <script type="module" crossorigin src="/chunks/popup-A1.js"></script>
    <link rel="modulepreload" crossorigin href="/chunks/hooks-B2.js">
    <link rel="modulepreload" crossorigin href="/chunks/i18n-C3.js">
    <link rel="stylesheet" crossorigin href="/assets/popup-D4.css">
  </head>
  <body>
    <div id="app"></div>
  </body>
</html>`;

/** The scripts and links among `elements`, one line each: what they load, and as what. */
const tags = (elements: Iterable<Element>) =>
  Array.from(elements)
    .filter((el) => el.localName === 'script' || el.localName === 'link')
    .map((el) => `${el.localName} ${el.getAttribute('rel') ?? el.getAttribute('type') ?? ''} ${el.getAttribute('src') ?? el.getAttribute('href')}`.replace(/\s+/g, ' '));

describe('holdBundle', () => {
  const { document } = parseHTML(holdBundle(BUILT));
  it('leaves the start script and the stylesheet in the head, and no module to load there', () => {
    expect(tags(document.head.children)).toEqual([
      'script /popup-start.js',
      'link stylesheet /assets/popup-D4.css',
    ]);
  });
  it('holds the preloads and then the module script, as Vite wrote them, in the template', () => {
    const template = document.getElementById(BUNDLE_TEMPLATE_ID) as HTMLTemplateElement;
    expect(template.localName).toBe('template');
    expect(tags(template.content.children)).toEqual(['link modulepreload /chunks/hooks-B2.js', 'link modulepreload /chunks/i18n-C3.js', 'script module /chunks/popup-A1.js']);
    expect(template.content.querySelector('script')!.hasAttribute('crossorigin')).toBe(true);
  });
  it.each([
    ['no module script', BUILT.replace(/<script type="module"[^\n]*\n/, '')],
    ['two module scripts', BUILT.replace('</head>', '<script type="module" crossorigin src="/chunks/other.js"></script></head>')],
  ])('fails the build on a page with %s', (_, html) => {
    expect(() => holdBundle(html)).toThrow(/module scripts, not 1/);
  });
});

describe('withoutComments', () => {
  it.each([
    ['a comment on its own line', '<head>\n    <!-- Why the script is first. -->\n    <script src="/a.js"></script>', '<head>\n    <script src="/a.js"></script>'],
    ['a comment over lines, with markup in it', '<body><!-- <div>\nnot this</div> --><div id="app"></div>', '<body><div id="app"></div>'],
    ['two comments: each ends at its own end', '<!-- a --><p>kept</p><!-- b -->', '<p>kept</p>'],
    ['no comment', '<p>kept</p>', '<p>kept</p>'],
  ])('%s', (_, html, shipped) => {
    expect(withoutComments(html)).toBe(shipped);
  });
});

describe('loadBundle', () => {
  it('puts the held tags back in the head, made anew, and the template goes', () => {
    const { document } = parseHTML(holdBundle(BUILT));
    loadBundle(document);
    expect(document.getElementById(BUNDLE_TEMPLATE_ID)).toBeNull();
    expect(tags(document.head.children)).toEqual([
      'script /popup-start.js',
      'link stylesheet /assets/popup-D4.css',
      'link modulepreload /chunks/hooks-B2.js',
      'link modulepreload /chunks/i18n-C3.js',
      'script module /chunks/popup-A1.js',
    ]);
  });
  it('leaves a page without a template (the dev server loads the bundle with the page) as it is', () => {
    const { document } = parseHTML(BUILT);
    const before = document.documentElement.outerHTML;
    loadBundle(document);
    expect(document.documentElement.outerHTML).toBe(before);
  });
});

describe('writeOpening', () => {
  it.each(['en', 'ru'])("writes the popup page's first frame in the browser's language (%s): its name and the reading starting", async (lang) => {
    const messages = generateChromeMessages(await parseMessagesFile(fileURLToPath(new URL(`../../locales/${lang}.yml`, import.meta.url))));
    const { document } = parseHTML(readFileSync(fileURLToPath(new URL('../../entrypoints/popup/index.html', import.meta.url)), 'utf8'));
    writeOpening(document, (name) => messages[name]?.message ?? `no message ${name}`);
    const words = Array.from(document.querySelectorAll('#app [data-opening]'), (el) => el.textContent);
    expect(words).toEqual([messages.extName!.message, messages.state_loading!.message]);
  });
});
