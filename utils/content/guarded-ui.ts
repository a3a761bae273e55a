/**
 * The extension's controls on a page the page cannot work (content scripts): a closed shadow root the
 * page's script cannot reach into, whose host it cannot restyle (WXT's `:host { all: initial
 * !important }` outranks any rule of the page), and a watch for what it can still do: move or mark the
 * host, or scale the whole page (a transform or zoom on `<html>`) so that an invisible control covers
 * what the user means to click. Such a control is taken away before the user's click reaches it: the
 * pointer entering it is checked first, and every press again.
 */
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { createShadowRootUi, type ShadowRootContentScriptUi } from 'wxt/utils/content-script-ui/shadow-root';

/** What a control must look like to be acted on. */
export interface ControlBounds {
  /** Its own largest size, in CSS pixels: a control scaled past it is not the one drawn for the user. */
  maxWidth: number;
  maxHeight: number;
}

/** What `intact` decides on, read from the page (`factsOf`), or made up by a test. */
export interface ControlFacts {
  /** The host is still in the document, directly in `<html>` where it was put. */
  inPlace: boolean;
  /** The host carries no attribute the extension did not give it. */
  unmarked: boolean;
  /** Not hidden by `visibility`, `opacity: 0` or `content-visibility` (its own or the page's). */
  visible: boolean;
  /** The page's own opacity (`<html>`'s): a faded page may be drawing something else over the control. */
  pageOpacity: number;
  rect: { left: number; top: number; width: number; height: number };
  viewport: { width: number; height: number };
}

/** Below this the page is too faded to tell what the user sees (an opacity game, not a design). */
const MIN_PAGE_OPACITY = 0.5;

/** Whether a control may be acted on: where it was put, unmarked, visible, its own size, in the window. */
export function intact(f: ControlFacts, bounds: ControlBounds): boolean {
  const { rect, viewport } = f;
  return (
    f.inPlace &&
    f.unmarked &&
    f.visible &&
    f.pageOpacity >= MIN_PAGE_OPACITY &&
    rect.width > 0 &&
    rect.height > 0 &&
    rect.width <= bounds.maxWidth &&
    rect.height <= bounds.maxHeight &&
    rect.left < viewport.width &&
    rect.top < viewport.height &&
    rect.left + rect.width > 0 &&
    rect.top + rect.height > 0
  );
}

/**
 * Whether a control has settled: seen with the same look (`lookOf`) for `ms`, and not drawn over. Each look
 * is told with its time; a changed look starts the wait again.
 */
export class Settling {
  private seen: { look: string; since: number } | null = null;

  constructor(readonly ms: number) {}

  see(look: string, now: number, covered: boolean): boolean {
    if (!this.seen || this.seen.look !== look) this.seen = { look, since: now };
    return now - this.seen.since >= this.ms && !covered;
  }

  /** Not shown: it settles anew when shown again. */
  forget(): void {
    this.seen = null;
  }
}

/** A control's place and look as last seen: a change restarts its time to settle. */
export function lookOf(f: Pick<ControlFacts, 'rect' | 'visible'>): string {
  const { left, top, width, height } = f.rect;
  return `${Math.round(left)},${Math.round(top)},${Math.round(width)},${Math.round(height)},${f.visible}`;
}

/**
 * Whether something of the page's is drawn over `box` (whose host is the last child of `<html>`, above the
 * page's own stacking): an element in the top layer (an open popover, a modal dialog, a full-screen element),
 * or one the page put after the host. `pointer-events: none` does not matter: the user sees it, not the control.
 */
export function coveredByPage(box: Element, host: Element, doc: Document = document): boolean {
  const r = box.getBoundingClientRect();
  const overlaps = (el: Element) => {
    if (el === host || el.contains(host)) return false;
    const o = el.getBoundingClientRect();
    return o.width > 0 && o.height > 0 && o.left < r.right && o.right > r.left && o.top < r.bottom && o.bottom > r.top;
  };
  let topLayer: Element[] = [];
  try {
    topLayer = [...doc.querySelectorAll(':popover-open, dialog:modal, :fullscreen')];
  } catch {
    // A browser without one of these selectors has no such top layer to fear.
  }
  if (topLayer.some(overlaps)) return true;
  // What the page put after the host, and inside it (at most a few hundred elements: a page has no business there).
  let looked = 0;
  for (let el = host.nextElementSibling; el && looked < 500; el = el.nextElementSibling) {
    for (const each of [el, ...el.querySelectorAll('*')]) {
      if (++looked > 500) return true;
      if (overlaps(each) && (typeof each.checkVisibility !== 'function' || each.checkVisibility({ opacityProperty: true, visibilityProperty: true }))) return true;
    }
  }
  return false;
}

/** The host's attributes as the extension left them: any other is the page's doing. */
const hostAttributes = (host: Element) => [...host.getAttributeNames()].sort().join(' ');

export function factsOf(box: Element, host: Element, expectedAttributes: string, doc: Document = document): ControlFacts {
  const view = doc.defaultView ?? window;
  const r = box.getBoundingClientRect();
  const opacity = Number(view.getComputedStyle(doc.documentElement).opacity);
  const visible = typeof box.checkVisibility === 'function' ? box.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true }) : true;
  return {
    inPlace: host.isConnected && host.parentNode === doc.documentElement,
    unmarked: hostAttributes(host) === expectedAttributes,
    visible,
    pageOpacity: Number.isFinite(opacity) ? opacity : 1,
    rect: { left: r.left, top: r.top, width: r.width, height: r.height },
    viewport: { width: view.innerWidth, height: view.innerHeight },
  };
}

/** Events that could make a control act, checked (in capture, before the control's own handlers) every time. */
const GUARDED = ['pointerover', 'pointerdown', 'mousedown', 'click', 'auxclick', 'dblclick', 'keydown', 'contextmenu'] as const;
/** Of those, the ones that act: a control that must settle first takes them only once settled. */
const ACTING = new Set<string>(['pointerdown', 'mousedown', 'click', 'auxclick', 'dblclick', 'keydown']);
/** How often a shown control that must settle is looked at (ms): a move between two looks is seen at the click. */
const SETTLE_LOOK_MS = 150;

export interface GuardedUi {
  ui: ShadowRootContentScriptUi<HTMLElement>;
  /** Stops watching (before the extension itself removes the host). */
  release(): void;
}

/**
 * A control in a closed shadow root, mounted in `<html>`: `mount(container)` builds it; `box()` is the
 * element whose size `bounds` limits. `onTampered` is called once when the page moved, marked or
 * scaled it; the control is then no longer acted on (the caller takes it away).
 */
export async function guardedUi(
  ctx: ContentScriptContext,
  opts: {
    name: string;
    css: string;
    bounds: ControlBounds;
    mount(container: HTMLElement): void;
    box(): Element | null;
    /**
     * A control that starts something paid (click-to-read's ▶) acts only once it has been visible, uncovered
     * and still this long (ms): a page cannot move it under the pointer, or draw over it, just before a click.
     * Its box carries `data-settled` ("true" once it may act).
     */
    settleMs?: number;
    onTampered(reason: 'moved' | 'marked' | 'geometry'): void;
    onRemove?(container: HTMLElement | undefined): void;
  },
  doc: Document = document,
): Promise<GuardedUi> {
  let watching = false;
  let expected = '';
  let observer: MutationObserver | null = null;
  const release = () => {
    watching = false;
    observer?.disconnect();
    observer = null;
    shownWatch?.disconnect();
    occlusionWatch?.disconnect();
    clearTimeout(lookTimer);
  };
  const tampered = (reason: 'moved' | 'marked' | 'geometry') => {
    if (!watching) return;
    release();
    opts.onTampered(reason);
  };
  // Settling (`settleMs`): its look as last seen, and since when; Chromium's occlusion tracking where it has it.
  const settling = opts.settleMs ? new Settling(opts.settleMs) : null;
  let hostEl: Element | null = null;
  let occluded = false;
  let lookTimer = 0;
  const settled = (now: number): boolean => {
    const box = opts.box();
    if (!settling || !box || !hostEl) return true;
    const ok = settling.see(lookOf(factsOf(box, hostEl, expected, doc)), now, occluded || coveredByPage(box, hostEl, doc));
    if (box instanceof HTMLElement) box.dataset.settled = String(ok);
    return ok;
  };
  const lookAgain = () => {
    const box = opts.box();
    const shown = !!box && box.getBoundingClientRect().width > 0;
    if (shown) settled(performance.now());
    else settling?.forget();
    // Looked at while shown (a hidden one costs nothing), and once more when it would have settled.
    lookTimer = shown ? window.setTimeout(lookAgain, Math.min(SETTLE_LOOK_MS, opts.settleMs ?? SETTLE_LOOK_MS)) : 0;
  };
  let shownWatch: ResizeObserver | null = null;
  let occlusionWatch: IntersectionObserver | null = null;
  const watchSettling = (box: Element) => {
    // Shown or hidden: the looks start or stop.
    shownWatch = new ResizeObserver(() => {
      clearTimeout(lookTimer);
      lookAgain();
    });
    shownWatch.observe(box);
    // Intersection Observer v2 (Chromium): whether anything at all is drawn over it, filters and transforms too.
    if (typeof IntersectionObserverEntry !== 'undefined' && 'isVisible' in IntersectionObserverEntry.prototype) {
      occlusionWatch = new IntersectionObserver(
        (entries) => {
          const last = entries.at(-1) as (IntersectionObserverEntry & { isVisible?: boolean }) | undefined;
          if (last) occluded = last.isIntersecting && last.isVisible === false;
        },
        { threshold: [1], trackVisibility: true, delay: 100 } as IntersectionObserverInit,
      );
      occlusionWatch.observe(box);
    }
  };
  const ui = await createShadowRootUi(ctx, {
    name: opts.name,
    position: 'inline',
    anchor: 'html',
    append: 'last',
    css: opts.css,
    mode: 'closed',
    // Keys typed in it (arrows on the handle, space on a button) do not reach the page's own shortcuts.
    isolateEvents: true,
    onMount(container, _shadow, host) {
      for (const type of GUARDED) {
        container.addEventListener(
          type,
          (e) => {
            const box = opts.box();
            if (e.isTrusted && watching && box && intact(factsOf(box, host, expected, doc), opts.bounds)) {
              if (!ACTING.has(type) || settled(performance.now())) return;
              // Not settled yet (just shown, just moved, or drawn over): this press does nothing; the next may.
              e.stopImmediatePropagation();
              e.preventDefault();
              return;
            }
            // Not the user's own input on the control as drawn: it does nothing.
            e.stopImmediatePropagation();
            e.preventDefault();
            if (e.isTrusted) tampered('geometry');
          },
          { capture: true },
        );
      }
      opts.mount(container);
      return container;
    },
    onRemove(container) {
      release();
      opts.onRemove?.(container);
    },
  });
  const mountWatched = ui.mount;
  ui.mount = () => {
    mountWatched();
    const host = ui.shadowHost;
    expected = hostAttributes(host);
    watching = true;
    hostEl = host;
    const box = opts.box();
    if (opts.settleMs && box) watchSettling(box);
    observer = new MutationObserver((records) => {
      if (!host.isConnected || host.parentNode !== doc.documentElement) tampered('moved');
      else if (records.some((r) => r.type === 'attributes' && r.target === host)) tampered('marked');
    });
    observer.observe(doc.documentElement, { childList: true });
    observer.observe(host, { attributes: true });
  };
  return { ui, release };
}
