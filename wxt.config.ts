import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import type { Plugin } from 'vite';
import { defineConfig } from 'wxt';
import { popupBundleLater } from './scripts/popup-bundle-later';
import { vendorPatches } from './scripts/vendor-patches';

// The API origin every install may reach; other https origins are asked for at
// run time (optional_host_permissions); loopback is granted too (the local service and the tests).
export const DEFAULT_API_ORIGIN = 'https://api.trysasha.ru';
/**
 * The oldest Chromium the extension supports: Debian's main suite ships it (bookworm, 150.0.7871.100), Yandex
 * Browser and other Chromium browsers trail Chrome by months, and it was current about six months before this
 * release (Chrome 156). The whole Chromium suite passes on it (`CHROMIUM_PATH=… npx playwright test`); CI runs
 * the specs that lean on the engine most on it too (`npm run test:e2e:oldest`). What needed 156 before: the
 * extension's own pages' addresses, hidden from `tabs.get` without the "tabs" permission on 150
 * (`page-text/pdf-tab.ts` `tabUrl` finds them among the extension's contexts).
 */
export const MINIMUM_CHROME_VERSION = '150';
/** Firefox needs a fixed add-on id (storage and the tests' fixed UUID hang on it). */
export const GECKO_ID = 'reader@trysasha.ru';
/** V8's explicit compile hint for a whole file: https://v8.dev/blog/explicit-compile-hints */
const COMPILE_ALL = '//# allFunctionsCalledOnLoad';
/** What `extractScript` (utils/messaging/content.ts) returns until the build puts the extract script's code there. */
const EXTRACT_SCRIPT_PLACE = /(["'`])@@trysasha-extract-script@@\1/g;
/** WXT's own `wxt/browser` (`globalThis.browser` where it exists, else `chrome`), which the polyfill module aliases away. */
const WXT_BROWSER = fileURLToPath(import.meta.resolve('wxt/browser'));

/**
 * Test builds (`--mode test`) get the diagnostics tests and benchmarks drive (`utils/diagnostics/wired-test.ts`)
 * in place of the production build's none (`wired.ts`): the only place that knows which build it is.
 */
function testDiagnostics(mode: string): Plugin {
  return {
    name: 'trysasha:test-diagnostics',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (mode !== 'test' || !/(^|\/)diagnostics\/wired$/.test(source)) return null;
      return this.resolve(`${source}-test`, importer, { ...options, skipSelf: true });
    },
  };
}

export default defineConfig({
  // Every import is written out: a file's imports say where its code comes from (and WXT's auto-imports
  // reach only files directly in utils/).
  imports: false,
  modules: ['@wxt-dev/webextension-polyfill', '@wxt-dev/i18n/module'],
  // addons.mozilla.org's sources zip (`npm run zip:firefox`): the repository as checked in, without test output.
  zip: { excludeSources: ['test-results/**', 'playwright-report/**', 'bench/results.json'] },
  vite: (env) => ({
    plugins: [vendorPatches(), preact(), testDiagnostics(env.mode), popupBundleLater()],
    // Every browser the extension supports preloads modules itself: Vite's stand-in for that is not
    // shipped (it was the first script of every page, the popup's among them).
    build: { modulePreload: { polyfill: false } },
  }),
  manifest: ({ browser }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    // Chromium only (Firefox reads strict_min_version): see MINIMUM_CHROME_VERSION.
    ...(browser === 'firefox' ? {} : { minimum_chrome_version: MINIMUM_CHROME_VERSION }),
    permissions: ['storage', 'offscreen', 'contextMenus', 'activeTab', 'scripting'].filter(
      (p) => browser !== 'firefox' || p !== 'offscreen',
    ),
    // Loopback in every build, as the test surface requires (../shared/CONTRACT.md, "Host access": the
    // local service and the tests run there, and saving a loopback address never prompts). What could
    // reach this machine through it is bounded elsewhere: a queued link or a redirect into a local host
    // is refused unless the service itself is there (net/bounded-fetch.ts `localReachable`).
    host_permissions: [`${DEFAULT_API_ORIGIN}/*`, 'http://127.0.0.1/*', 'http://localhost/*'],
    // https: other API origins; http(s): pages the listening queue fetches and click-to-read runs on, asked for
    // only when the user turns those on.
    optional_host_permissions: ['https://*/*', 'http://*/*'],
    browser_specific_settings: {
      gecko: {
        id: GECKO_ID,
        // storage.session, scripting in MV2 and ::highlight() are all there by Firefox 140 (ESR).
        strict_min_version: '140.0',
        // The text of the page (or selection) being read is sent to the speech service: website content.
        // Nothing else is collected; the key goes only to the service the user saved it for.
        data_collection_permissions: { required: ['websiteContent'] },
      },
      // Firefox for Android reads data_collection_permissions from 142 on (web-ext lint: KEY_FIREFOX_ANDROID_UNSUPPORTED_BY_MIN_VERSION).
      gecko_android: { strict_min_version: '142.0' },
    },
    action: { default_title: '__MSG_actionTitle__' },
    // Chrome allows four suggested keys; "previous" is left for the user to bind in chrome://extensions/shortcuts.
    commands: {
      read: { suggested_key: { default: 'Alt+R' }, description: '__MSG_cmdRead__' },
      'toggle-pause': { suggested_key: { default: 'Alt+P' }, description: '__MSG_cmdToggle__' },
      stop: { suggested_key: { default: 'Alt+O' }, description: '__MSG_cmdStop__' },
      next: { suggested_key: { default: 'Alt+Period' }, description: '__MSG_cmdNext__' },
      previous: { description: '__MSG_cmdPrevious__' },
    },
    content_security_policy: {
      extension_pages: "script-src 'self'; object-src 'self'",
    },
  }),
  hooks: {
    'vite:build:extendConfig': (entrypoints, config) => {
      // Everything but the background takes the browser's own API object, not the webextension-polyfill.
      // The content scripts (and the extract script, an unlisted script injected into pages) call no
      // extension API through it (messaging calls `chrome` itself), and WXT's content-script context only
      // reads `runtime.id`: the polyfill was compiled at every first injection.
      // The pages (popup, options, player, PDF and the rest) call only what Chrome's own `chrome` answers
      // with a promise in every version the manifest allows (storage, tabs, runtime, permissions, i18n), and
      // Firefox's `browser` is its own: the popup opens without it. The background keeps
      // it: its many calls have not each been checked against `chrome`'s, and its size costs no page's opening.
      if (entrypoints.some((e) => e.type === 'background')) return;
      const alias = config.resolve?.alias;
      // The polyfill module sets its alias as an object key; a list would need another merge.
      if (Array.isArray(alias)) throw new Error('wxt.config.ts: Vite aliases came as a list; the content scripts\' `wxt/browser` needs mending');
      config.resolve = { ...config.resolve, alias: { ...alias, 'wxt/browser': WXT_BROWSER } };
    },
    'build:done': async (wxt) => {
      // V8's compile hint (Chrome 136+; other engines read a comment): every function of the extract script
      // is compiled as it is injected, not on its first call. Where the script is already in the page (read
      // before, or click-to-read), the extraction at the reading's start no longer compiles Readability and
      // ours (measured with bench/ab.ts --fresh resident: bench/HISTORY.md). Minifying drops comments, so it is
      // put in after.
      const file = join(wxt.config.outDir, 'extract.js');
      const code = await readFile(file, 'utf8').catch(() => null);
      if (code !== null && !code.startsWith(COMPILE_ALL)) await writeFile(file, `${COMPILE_ALL}\n${code}`);
      // The background injects the same code as a function, its request the argument (`extractScript`).
      const background = join(wxt.config.outDir, 'background.js');
      const worker = await readFile(background, 'utf8').catch(() => null);
      if (code === null || worker === null) return;
      const places = worker.match(EXTRACT_SCRIPT_PLACE)?.length ?? 0;
      if (places !== 1) throw new Error(`wxt.config.ts: background.js holds ${places} places for the extract script's code, not 1`);
      // The script is one expression statement (WXT's IIFE), whose value is its answer.
      const expression = code.replace(COMPILE_ALL, '').trim().replace(/;$/, '');
      if (!/^\(function\(\)\{[^]*\}\)\(\)$/.test(expression)) throw new Error('wxt.config.ts: extract.js is not one function called at once, as WXT builds an unlisted script');
      await writeFile(background, worker.replace(EXTRACT_SCRIPT_PLACE, () => `(${expression})`));
    },
    'build:manifestGenerated': (_wxt, manifest) => {
      // The extract script is injected on demand (activeTab + scripting): it must
      // not turn into a standing host permission for every site.
      manifest.host_permissions = manifest.host_permissions?.filter((p: string) => p !== '<all_urls>');
      if (manifest.action) manifest.action.default_title = '__MSG_actionTitle__';
      if (manifest.browser_action) manifest.browser_action.default_title = '__MSG_actionTitle__';
      // No popup on the button itself: its click reaches the background (action.onClicked), which starts
      // reading at once and then opens the popup; the popup's page load is off the way to the first audio.
      delete manifest.action?.default_popup;
      delete manifest.browser_action?.default_popup;
      if (manifest.manifest_version === 2) {
        // MV2 has no optional_host_permissions: other API origins are optional permissions there.
        manifest.optional_permissions = [...(manifest.optional_permissions ?? []), 'https://*/*', 'http://*/*'];
      }
    },
  },
});
