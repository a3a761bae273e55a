import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import JSZip from 'jszip';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { GECKO_ID } from '../../wxt.config.ts';
import { newProfileDir } from '../fixtures/profile-dir.ts';

/**
 * The Firefox test build (`wxt build -b firefox --mode test`): the production code plus the background
 * page's `contextMenuClick`, `commandHandler` and `player` (with `stats`) hooks. `web-ext lint` runs on
 * the production build (`.output/firefox-mv2`), which is what ships. `TRYSASHA_FIREFOX_EXTENSION_DIR`
 * runs the tests on another build (an older commit's, to see a new test fail there).
 */
export const FIREFOX_EXTENSION_DIR = process.env.TRYSASHA_FIREFOX_EXTENSION_DIR
  ? resolve(process.env.TRYSASHA_FIREFOX_EXTENSION_DIR)
  : resolve(import.meta.dirname, '../../.output/firefox-mv2-test');

export function firefoxPath(): string {
  const found = [process.env.FIREFOX_PATH, '/usr/bin/firefox-esr', '/usr/bin/firefox'].find((p): p is string => !!p && existsSync(p));
  if (!found) throw new Error('Firefox not found: apt-get install -y firefox-esr');
  return found;
}

/**
 * The oldest Firefox these tests can play audio in. There is no sound card here,
 * and only Firefox 153 has the mock audio output (`media.cubeb.force_mock_context`);
 * 140.12 ESR, which Debian's main suite still carries, fails every playback with
 * "OnMediaSinkAudioError" after a few hundred milliseconds (measured here).
 * With a real audio output (a PulseAudio null sink named in PULSE_SERVER) the
 * suite runs on 140 too: all of it passed there.
 */
const MIN_TEST_FIREFOX = 153;

let checkedVersion = false;
/** Fails at once, with what to do, on a Firefox these tests cannot play audio in. */
export function checkFirefoxVersion(path = firefoxPath()): void {
  if (checkedVersion || process.env.PULSE_SERVER) return;
  // `--version` prints "Mozilla Firefox 153.7.0esr".
  const major = Number(/(\d+)\.\d+/.exec(execFileSync(path, ['--version'], { encoding: 'utf8' }))?.[1] ?? 0);
  if (major < MIN_TEST_FIREFOX) {
    throw new Error(
      `${path} is Firefox ${major}; these tests need ${MIN_TEST_FIREFOX} or newer for a mock audio output ` +
        '(apt-get update && apt-get install -y firefox-esr brings 153 ESR from the security suite), ' +
        'or a real audio output: a PulseAudio server named in PULSE_SERVER.',
    );
  }
  checkedVersion = true;
}

export interface LaunchedFirefox {
  browser: Browser;
  /** moz-extension://UUID/ — fixed in advance through a pref, so pages can be opened by URL. */
  base: string;
  profileDir: string;
  /** Where a download goes, without asking (`<profile>/downloads`). */
  downloadsDir: string;
  /** Quits Firefox and removes the profile (unless it was given by the caller). */
  close(): Promise<void>;
}

export interface FirefoxLaunchOptions {
  extensionDir?: string;
  /**
   * Installs the build into the profile as a regular (unsigned) add-on instead of
   * a temporary one, so it survives a restart of Firefox with the same profile.
   * ESR honours `xpinstall.signatures.required = false`.
   */
  permanent?: boolean;
  /**
   * A packaged add-on (`npm run zip:firefox`'s zip) installed into the profile as it is, as a regular
   * add-on (implies `permanent`): the package itself is what runs, not the build folder.
   */
  xpi?: string;
  /** A profile to use (and keep); a fresh one is made and removed otherwise. */
  profileDir?: string;
  /** The moz-extension UUID (the same across restarts of one profile). */
  uuid?: string;
}

/** Zips a built extension into `<profile>/extensions/<id>.xpi`, where Firefox finds it at start. */
async function installIntoProfile(extensionDir: string, profileDir: string): Promise<void> {
  const zip = new JSZip();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else zip.file(relative(extensionDir, path), readFileSync(path));
    }
  };
  walk(extensionDir);
  mkdirSync(join(profileDir, 'extensions'), { recursive: true });
  writeFileSync(join(profileDir, 'extensions', `${GECKO_ID}.xpi`), await zip.generateAsync({ type: 'nodebuffer' }));
}

const PREFS = {
  'media.cubeb.force_mock_context': true,
  // No network here: a saved page's ads and trackers (other hosts) fail at once through a proxy on a
  // closed loopback port, instead of each waiting out a connection (heise's page took 11–16 s to load,
  // over the 15 s a page is given). Loopback (the pages, the local service) is never proxied.
  'network.proxy.type': 1,
  'network.proxy.http': '127.0.0.1',
  'network.proxy.http_port': 9,
  'network.proxy.ssl': '127.0.0.1',
  'network.proxy.ssl_port': 9,
};

let template: Promise<string> | null = null;
/**
 * A profile Firefox has already started in once, without the extension, made once per process and
 * copied for each launch: Firefox fills a new profile on its first start (a launch took 4.7 s here
 * in an empty profile, 2.5 s in a copy; quitting 1.0 against 0.5 s). Each launch still gets
 * a profile of its own: nothing of one test's reaches the next.
 */
function profileTemplate(): Promise<string> {
  template ??= (async () => {
    const dir = newProfileDir('tts-firefox-template-');
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
    const browser = await puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath(), headless: true, userDataDir: dir, extraPrefsFirefox: PREFS });
    await browser.close();
    return dir;
  })();
  return template;
}

async function freshProfile(): Promise<string> {
  const dir = newProfileDir('tts-firefox-');
  // The lock files of the run that made the template are left out.
  cpSync(await profileTemplate(), dir, { recursive: true, filter: (src) => !/(^|\/)(\.parentlock|lock)$/.test(src) });
  return dir;
}

/**
 * Headless firefox-esr over WebDriver BiDi with the built extension installed as
 * a temporary add-on (FIREFOX-TESTING.md). No sound card here: cubeb's mock
 * context plays in real time instead of failing.
 */
export async function launchFirefoxWithExtension(opts: FirefoxLaunchOptions = {}): Promise<LaunchedFirefox> {
  const ext = opts.extensionDir ?? FIREFOX_EXTENSION_DIR;
  if (!opts.xpi && !existsSync(join(ext, 'manifest.json'))) throw new Error(`No built extension at ${ext}: run npx wxt build -b firefox --mode test`);
  checkFirefoxVersion();
  const uuid = opts.uuid ?? randomUUID();
  const profileDir = opts.profileDir ?? (await freshProfile());
  const permanent = opts.permanent || opts.xpi !== undefined;
  if (opts.xpi) {
    mkdirSync(join(profileDir, 'extensions'), { recursive: true });
    copyFileSync(opts.xpi, join(profileDir, 'extensions', `${GECKO_ID}.xpi`));
  } else if (permanent && !existsSync(join(profileDir, 'extensions', `${GECKO_ID}.xpi`))) await installIntoProfile(ext, profileDir);
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxPath(),
    headless: true,
    userDataDir: profileDir,
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: uuid }),
      ...PREFS,
      // Save as MP3's file goes to the profile's own folder, without a dialog.
      'browser.download.folderList': 2,
      'browser.download.dir': join(profileDir, 'downloads'),
      'browser.download.useDownloadDir': true,
      'browser.download.always_ask_before_handling_new_types': false,
      'browser.download.alwaysOpenPanel': false,
      ...(permanent
        ? { 'xpinstall.signatures.required': false, 'extensions.autoDisableScopes': 0, 'extensions.enabledScopes': 15 }
        : {}),
    },
  });
  if (!permanent) await browser.installExtension(ext);
  return {
    browser,
    base: `moz-extension://${uuid}/`,
    profileDir,
    downloadsDir: join(profileDir, 'downloads'),
    async close() {
      await browser.close().catch(() => undefined);
      if (!opts.profileDir) rmSync(profileDir, { recursive: true, force: true });
    },
  };
}

/**
 * Firefox's BiDi sometimes fails an evaluation with a protocol error ("right-hand
 * side of 'in' should be an object") while a document is being replaced; such a
 * failure says nothing about the page, so it is tried again.
 */
export async function evaluate<A extends unknown[], T>(page: Page, fn: (...args: A) => T | Promise<T>, ...args: A): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await page.evaluate(fn as never, ...(args as unknown as never[]))) as T;
    } catch (err) {
      const text = `${String(err)} ${String((err as { cause?: unknown }).cause)}`;
      if (attempt >= 20 || !text.includes('Protocol error')) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/**
 * Opens a page without awaiting `goto` (it never reports an extension page's
 * navigation finished) and waits until the document at `url` has loaded.
 */
export async function openPage(browser: Browser, url: string, timeout = 15_000): Promise<Page> {
  const page = await browser.newPage();
  void page.goto(url).catch(() => undefined);
  // The page may add to its own address as it starts (the book page adds its book's id: `&book=…`).
  const loaded = (seen: string) => seen.endsWith(' complete') && seen.startsWith(url);
  const seen = await pollFor(async () => loaded(await evaluate(page, () => `${location.href} ${document.readyState}`).catch(() => '')) || null, timeout, 50);
  if (!seen) throw new Error(`${url} did not load in ${timeout} ms`);
  return page;
}

/** `read`'s first answer that is not null, asked every `everyMs` until `timeout` ms have passed (null then). */
async function pollFor<T>(read: () => Promise<T | null>, timeout: number, everyMs: number): Promise<T | null> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const found = await read();
    if (found !== null || Date.now() > deadline) return found;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const openExtensionPage = openPage;

/**
 * A real mouse click in the middle of the element `selector` (`>>>` reaches into shadow roots), once it is
 * there, scrolled into view first if it is not. Puppeteer's own `click` took 1 to 15 s here in Firefox, the
 * longer the more audio had played; the same mouse events sent directly take a few milliseconds.
 */
export async function click(page: Page, selector: string, timeout = 10_000): Promise<void> {
  // Waited for, as Playwright's locators do: a page may not have drawn it yet (the popup draws once its reading plays).
  const element = await pollFor(() => page.$(selector), timeout, 20);
  if (!element) throw new Error(`No element matches ${selector}`);
  // Scrolled and measured in one step, and again if the page moved it out of view meanwhile (a panel that
  // appears above it as an earlier answer comes: "move target out of bounds", seen once on the options page).
  // The element notes the click it gets: a page that moved it between the measure and the press (the options
  // page's account panel appearing above Save, seen once in CI) had its click land elsewhere, and it is pressed
  // again where it now is.
  for (let attempt = 0; ; attempt++) {
    const at = await element.evaluate((el) => {
      el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (!(r.width > 0 && r.height > 0 && x >= 0 && y >= 0 && x < innerWidth && y < innerHeight)) return null;
      const root = el.getRootNode() as Document | ShadowRoot;
      const hit = root.elementFromPoint(x, y);
      if (hit && hit !== el && !el.contains(hit)) return null;
      const mark = el as Element & { testClicked?: boolean };
      mark.testClicked = false;
      el.addEventListener('click', () => void (mark.testClicked = true), { capture: true, once: true });
      return { x, y };
    });
    if (at) {
      await page.mouse.click(at.x, at.y);
      // The press is dispatched before mouse.click returns. A control that is disabled gets no click event (as
      // for the user), and one the press removed, or whose page it closed, was pressed.
      const landed = await element
        .evaluate((el) => !el.isConnected || el.matches(':disabled') || (el as Element & { testClicked?: boolean }).testClicked === true)
        .catch(() => true);
      if (landed) return;
    }
    if (attempt === 4) throw new Error(`${selector} is not shown`);
  }
}
