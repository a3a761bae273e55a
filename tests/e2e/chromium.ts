import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { newProfileDir } from '../fixtures/profile-dir.ts';

/** What ships (`npm run build`): no test hooks, no player counters. The demo runs it. */
export const PRODUCTION_EXTENSION_DIR = process.env.TRYSASHA_PRODUCTION_EXTENSION_DIR ? resolve(process.env.TRYSASHA_PRODUCTION_EXTENSION_DIR) : resolve(import.meta.dirname, '../../.output/chrome-mv3');
/** The development build (`wxt build --mode development`): the production code, built for development. */
export const DEVELOPMENT_EXTENSION_DIR = resolve(import.meta.dirname, '../../.output/chrome-mv3-dev');
/**
 * The test build (`wxt build --mode test`): the same code plus the hooks tests and benchmarks need
 * (`contextMenuClick`, `commandHandler` in the worker, `player` with its `stats` in the offscreen document).
 * `TRYSASHA_EXTENSION_DIR` runs the tests on another build (an older commit's, to see a new test fail there).
 */
export const EXTENSION_DIR = process.env.TRYSASHA_EXTENSION_DIR ? resolve(process.env.TRYSASHA_EXTENSION_DIR) : resolve(import.meta.dirname, '../../.output/chrome-mv3-test');

/**
 * Chromium takes the last `--disable-features` it is given, so this one repeats Playwright's own
 * (playwright-core's `chromiumSwitches`, 1.65) before adding ours. Ours: the omnibox's popups as web
 * pages, which Chromium 156 makes at every start even headless (chrome://omnibox-popup.top-chrome/, a
 * renderer of its own that took 1.1–1.3 s of CPU in each launch): a launch with the extension took
 * 2.5–2.8 s of CPU, 1.0–1.1 s without them (`/proc/<pid>/stat` of every Chromium process, 1 s after
 * the worker started). The tests launch one Chromium each: on two cores that CPU was their time.
 */
export const DISABLED_FEATURES = [
  // Playwright's
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  // ours
  'WebUIOmniboxPopup',
  'WebUIOmniboxFullPopup',
  'WebUIOmniboxAimPopup',
];

/** Debian's binary without its wrapper script (the wrapper prints harmless shell warnings). */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium'];
  const found = candidates.find((p): p is string => !!p && existsSync(p));
  if (!found) throw new Error('Chromium not found: apt-get install -y chromium');
  return found;
}

export interface LaunchedBrowser {
  context: BrowserContext;
  profileDir: string;
  close(): Promise<void>;
}

/**
 * Launches Chromium with the built extension in a fresh profile.
 * `--mute-audio` must stay off: Chrome treats a muted offscreen document as silent
 * and closes it about 30 s into playback (CHROMIUM-TESTING.md).
 */
export async function launchWithExtension(
  opts: { headless?: boolean; /** other hosts than loopback reachable (the demo: a reader may open real pages) */ network?: boolean; extensionDir?: string; locale?: string; colorScheme?: 'light' | 'dark'; /** device pixels per CSS pixel (2: as the browser's 200 % zoom draws) */ deviceScaleFactor?: number; args?: string[]; /** loaded as well (`bench/ab.ts` compares two builds) */ alsoLoad?: string[]; /** a profile kept across launches (a browser restart); `close()` then leaves it */ profileDir?: string } = {},
): Promise<LaunchedBrowser> {
  const ext = opts.extensionDir ?? EXTENSION_DIR;
  if (!existsSync(join(ext, 'manifest.json'))) {
    throw new Error(`No built extension at ${ext}: run ${ext === EXTENSION_DIR ? 'npx wxt build --mode test' : 'npm run build'}`);
  }
  const dirs = [ext, ...(opts.alsoLoad ?? [])].join(',');
  const profileDir = opts.profileDir ?? newProfileDir('tts-profile-');
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: chromiumPath(),
    headless: opts.headless ?? true,
    ignoreDefaultArgs: ['--mute-audio'],
    // On Linux the browser's own language comes from the environment (and needs chromium-l10n).
    ...(opts.locale ? { locale: opts.locale, env: { ...process.env, LANGUAGE: opts.locale.replace('-', '_') } } : {}),
    ...(opts.colorScheme ? { colorScheme: opts.colorScheme } : {}),
    ...(opts.deviceScaleFactor ? { deviceScaleFactor: opts.deviceScaleFactor } : {}),
    args: [
      ...(opts.locale ? [`--lang=${opts.locale}`] : []),
      ...(opts.args ?? []),
      `--disable-extensions-except=${dirs}`,
      `--load-extension=${dirs}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      // No network here: a saved page's ads and trackers (other hosts) fail at once instead of waiting on
      // the resolver (nytimes' page took 11.5 s to load, heise's 5.3 s; 0.8 and 0.5 s with this).
      ...(opts.network ? [] : ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost']),
      '--autoplay-policy=no-user-gesture-required',
      `--disable-features=${DISABLED_FEATURES.join(',')}`,
    ],
  });
  return {
    context,
    profileDir,
    async close() {
      await context.close().catch(() => undefined);
      if (!opts.profileDir) rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

export async function serviceWorkerOf(context: BrowserContext) {
  return context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
}
