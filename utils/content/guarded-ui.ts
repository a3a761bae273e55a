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
  };
  const tampered = (reason: 'moved' | 'marked' | 'geometry') => {
    if (!watching) return;
    release();
    opts.onTampered(reason);
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
            if (e.isTrusted && watching && box && intact(factsOf(box, host, expected, doc), opts.bounds)) return;
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
    observer = new MutationObserver((records) => {
      if (!host.isConnected || host.parentNode !== doc.documentElement) tampered('moved');
      else if (records.some((r) => r.type === 'attributes' && r.target === host)) tampered('marked');
    });
    observer.observe(doc.documentElement, { childList: true });
    observer.observe(host, { attributes: true });
  };
  return { ui, release };
}
