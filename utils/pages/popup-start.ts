/**
 * The reading a popup asks for as it opens, before its page's own bundle has loaded: `popup-start.js`, a
 * small classic script at the top of `popup.html`, asks the background at once (the popup's page load was
 * most of the way from its opening to the first audio), and leaves the ask where the popup's bundle
 * finds it (`window`). Opened by the toolbar button, the popup asks nothing: the click started the reading.
 */
import type { AskedStart } from './view-pace';

/** The ask, once its tab is known (null: none was made), and whether the background started a reading for it. */
export interface OpeningStart {
  asked: AskedStart;
  starts: Promise<boolean>;
}

const KEY = '__trysashaOpeningStart';

type WithStart = { [KEY]?: OpeningStart | Promise<OpeningStart | null> | null };

/** `popup.html?tabId=N` acts on tab N; opened from the toolbar it acts on the active tab. */
export function tabIdFromQuery(search: string): number | null {
  const fromQuery = Number(new URLSearchParams(search).get('tabId'));
  return Number.isInteger(fromQuery) && fromQuery > 0 ? fromQuery : null;
}

export interface StartDeps {
  search: string;
  activeTab(): Promise<number | null>;
  /** Asks the background to start reading the tab (unless a reading is active); whether it started one. */
  send(tabId: number): Promise<boolean>;
  now(): number;
}

/**
 * Asks for the reading the opening starts (if any): the tab named in the address at once (the ask is
 * returned as it is, for the popup's first drawing), else the active tab once it is known.
 */
export function askAtOpening({ search, activeTab, send, now }: StartDeps): OpeningStart | Promise<OpeningStart | null> | null {
  if (new URLSearchParams(search).get('from') === 'toolbar') return null;
  const ask = (tabId: number | null): OpeningStart | null => {
    if (tabId === null) return null;
    const asked = { sentAt: now(), tabId };
    return { asked, starts: send(tabId).catch(() => false) };
  };
  const named = tabIdFromQuery(search);
  return named !== null ? ask(named) : activeTab().then(ask, () => null);
}

/** The inert `<template>` the build moves the popup's bundle into (`scripts/popup-bundle-later.ts`). */
export const BUNDLE_TEMPLATE_ID = 'bundle';

/**
 * Once the ask is answered (a reading it started is under way: `utils/background/popup.ts`), or at once when
 * none was made: the popup's bundle loads then, its fetch, compile and first drawing kept off the reading's start.
 */
export function answered(start: ReturnType<typeof askAtOpening>): Promise<void> {
  return Promise.resolve(start)
    .then((asked) => asked?.starts)
    .then(
      () => undefined,
      () => undefined,
    );
}

/**
 * Loads the bundle the build held back: each tag in the template made again in the page's head (a tag
 * cloned from a template is not run). The page as written (the dev server's) has no template: its bundle
 * loaded with it. Called once the page is parsed: the bundle draws into its body.
 */
export function loadBundle(doc: Document): void {
  const held = doc.getElementById(BUNDLE_TEMPLATE_ID);
  if (!held || !('content' in held)) return;
  for (const tag of Array.from((held as HTMLTemplateElement).content.children)) {
    const made = doc.createElement(tag.localName);
    for (const { name, value } of Array.from(tag.attributes)) made.setAttribute(name, value);
    doc.head.append(made);
  }
  held.remove();
}

/** The page's first frame (`popup.html`): each `data-opening` element given the words of the message it names. */
export function writeOpening(doc: Document, message: (name: string) => string): void {
  for (const el of Array.from(doc.querySelectorAll<HTMLElement>('[data-opening]'))) el.textContent = message(el.dataset.opening ?? '');
}

/** Leaves the ask for the popup's bundle. */
export function leaveOpeningStart(start: ReturnType<typeof askAtOpening>, on: object = globalThis): void {
  (on as WithStart)[KEY] = start;
}

/** The ask the opening made: null when none was (or the early script did not run), a promise while its tab is looked up. */
export function openingStart(on: object = globalThis): ReturnType<typeof askAtOpening> {
  return (on as WithStart)[KEY] ?? null;
}
