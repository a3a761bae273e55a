/**
 * Click-to-read (content script, on pages while the option is on): a small ▶ at the start of the
 * readable block under the pointer; clicking it reads the article from exactly that block. The blocks
 * are the ones the reading itself would find (Readability), worked out once the pointer first moves
 * on the page, and again after the page changes. Nothing is read or sent until a ▶ is clicked.
 */
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { ignore } from '../log';
import { sendMessage as sendFromPage } from '../messaging/protocol';
import { i18n } from '../pages/i18n';
import { type Extraction, extractFromPage } from '../text/extract';
import { guardedUi } from './guarded-ui';
import css from './click-to-read.css?inline';

/** How far up from the element under the pointer a block is looked for. */
const MAX_DEPTH = 6;
const HIDE_AFTER_MS = 600;
/** A page that keeps changing (tickers, ads) has its blocks worked out again at most this often. */
const REFRESH_MS = 2_000;
const PLAY_PATH = 'M8 5v14l11-7z';
const SVG_NS = 'http://www.w3.org/2000/svg';
/** The ▶'s own size is 22 px (its CSS): scaled past this, it is not the button the user sees. */
const BUTTON_BOUNDS = { maxWidth: 30, maxHeight: 30 };
/** How long the ▶ must have been shown, uncovered and still, before a press on it counts (ms): longer than a page's trick between two clicks, shorter than a hand moving to it. */
const SETTLE_MS = 500;
/** A page that works the ▶ (moves, marks or scales it) gets none again until it is loaded anew. */
let spoiled = false;

interface Blocks {
  /** Each block's first text node (where reading from it starts) and the elements its text is in. */
  starts: Node[];
  byElement: Map<Element, number>;
}

/** The page's readable blocks, by the elements that hold their text. Pure over an extraction. */
export function blocksOf(extraction: Extraction): Blocks {
  const starts: Node[] = [];
  const byElement = new Map<Element, number>();
  extraction.segments.forEach((slices, k) => {
    const first = slices[0];
    if (!first || extraction.text.blocks[k]?.text.trim() === '') return;
    starts[k] = first.node;
    for (const s of slices) {
      const el = s.node.parentElement;
      if (el && !byElement.has(el)) byElement.set(el, k);
    }
  });
  return { starts, byElement };
}

/** The block under `target`: the nearest element up from it that holds a block's text. */
export function blockAt(blocks: Blocks, target: Element | null): number {
  let el = target;
  for (let depth = 0; el && depth < MAX_DEPTH; depth++, el = el.parentElement) {
    const k = blocks.byElement.get(el);
    if (k !== undefined) return k;
  }
  return -1;
}

/**
 * `handle` called once a frame, with the last value given since the frame before. The last, not the first:
 * a pointer that leaves a paragraph within the frame it came to it must leave no ▶ shown beside it.
 */
export function latestEachFrame<T>(requestFrame: (run: () => void) => unknown, handle: (value: T) => void): (value: T) => void {
  let waiting = false;
  let latest: T;
  return (value) => {
    latest = value;
    if (waiting) return;
    waiting = true;
    requestFrame(() => {
      waiting = false;
      handle(latest);
    });
  };
}

export function installClickToRead(ctx: ContentScriptContext, setStart: (node: Node) => void, doc: Document = document): void {
  let blocks: Blocks | null = null;
  let dirty = true;
  let madeAt = 0;
  let shownBlock = -1;
  let hideTimer = 0;
  let button: HTMLButtonElement | null = null;

  new MutationObserver((records) => {
    // Its own ▶ moving about is not the page changing.
    if (records.some((r) => !(r.target instanceof Element && r.target.localName === 'trysasha-click'))) dirty = true;
  }).observe(doc.documentElement, { childList: true, subtree: true, characterData: true });

  const blocksNow = (): Blocks => {
    if (!blocks || (dirty && performance.now() - madeAt > REFRESH_MS)) {
      dirty = false;
      blocks = blocksOf(extractFromPage(doc, { articleOnly: true }));
      madeAt = performance.now();
    }
    return blocks;
  };

  const ui = guardedUi(ctx, {
    name: 'trysasha-click',
    css,
    bounds: BUTTON_BOUNDS,
    box: () => button,
    // It starts a paid reading: only once it has been seen, uncovered and still, for half a second.
    settleMs: SETTLE_MS,
    onTampered: () => {
      spoiled = true;
      hide();
      void ui.then(({ ui: made }) => made.remove());
    },
    mount(container) {
      const b = doc.createElement('button');
      b.type = 'button';
      b.className = 'ctr';
      b.hidden = true;
      b.dataset.testid = 'click-to-read';
      b.setAttribute('aria-label', i18n.t('clickToReadStart'));
      b.title = i18n.t('clickToReadStart');
      // Built node by node: no markup parsed in the page's document.
      const svg = doc.createElementNS(SVG_NS, 'svg');
      for (const [name, value] of Object.entries({ viewBox: '0 0 24 24', width: '14', height: '14', 'aria-hidden': 'true', focusable: 'false' })) svg.setAttribute(name, value);
      const path = doc.createElementNS(SVG_NS, 'path');
      path.setAttribute('d', PLAY_PATH);
      path.setAttribute('fill', 'currentColor');
      svg.append(path);
      b.append(svg);
      b.addEventListener('mouseenter', () => clearTimeout(hideTimer));
      b.addEventListener('mouseleave', () => hideSoon());
      b.addEventListener('click', (e) => {
        // Only the user's own click starts a paid reading, never a page's script (the guard checked the ▶ too).
        if (!e.isTrusted || shownBlock < 0) return;
        const start = blocks?.starts[shownBlock];
        if (!start) return;
        setStart(start);
        hide();
        void sendFromPage('readFromHere', undefined).catch(ignore('click-to-read'));
      });
      container.append(b);
      button = b;
    },
  }).then((made) => (made.ui.mount(), made));

  const hide = () => {
    clearTimeout(hideTimer);
    shownBlock = -1;
    if (button) button.hidden = true;
  };
  const hideSoon = () => {
    clearTimeout(hideTimer);
    hideTimer = window.setTimeout(hide, HIDE_AFTER_MS);
  };

  const show = (k: number) => {
    const start = blocks?.starts[k];
    if (!button || !start) return;
    const range = doc.createRange();
    range.selectNodeContents(start);
    const rect = range.getClientRects()[0] ?? (start.parentElement?.getBoundingClientRect() ?? null);
    if (!rect) return;
    clearTimeout(hideTimer);
    shownBlock = k;
    button.dataset.block = String(k);
    // Left of the first line; where the text starts at the window's edge, just above it instead.
    const roomLeft = rect.left >= 30;
    button.style.left = `${roomLeft ? rect.left - 28 : Math.max(2, rect.left)}px`;
    button.style.top = `${Math.max(2, roomLeft ? rect.top + rect.height / 2 - 11 : rect.top - 24)}px`;
    button.hidden = false;
  };

  // Worked out after the frame: a quick sweep across the page works the blocks out once, for where it ended.
  const pointedAt = latestEachFrame<Element>(
    (run) => requestAnimationFrame(run),
    (target) =>
      void ui.then(() => {
        const k = blockAt(blocksNow(), target);
        if (k >= 0) show(k);
        else if (shownBlock >= 0) hideSoon();
      }),
  );
  ctx.addEventListener(
    doc,
    'pointerover',
    (e: Event) => {
      // The user's own pointer only: a page's made-up events show nothing.
      const target = e.isTrusted && e.target instanceof Element ? e.target : null;
      if (spoiled || !target || target.localName === 'trysasha-click' || target.localName === 'trysasha-player') return;
      pointedAt(target);
    },
    { passive: true, capture: true },
  );
  ctx.addEventListener(window, 'scroll', () => hide(), { passive: true });
}
