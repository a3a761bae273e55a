/**
 * The floating mini-player's page side (runs in the extract content script of the tab being read):
 * mounted in a shadow root when the background shows it, re-rendered as the reading changes, taken
 * away on stop. Its controls go back over `messaging/protocol.ts` (its page-controls section), which the background accepts only
 * from this script in the tab being read.
 */
import { render } from 'preact';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import type { ShadowRootContentScriptUi } from 'wxt/utils/content-script-ui/shadow-root';
import { FloatingPlayer } from '@/components/FloatingPlayer';
import { ignore } from '../log';
import { onPageRequest } from '../messaging/content';
import { sendMessage as sendFromPage } from '../messaging/protocol';
import { uiLocale } from '../pages/i18n';
import type { FloatingView } from '../messaging/views';
import type { FloatingPlace } from '../storage/page-options';
import { guardedUi } from './guarded-ui';
import css from './floating-player.css?inline';

/** The player's own largest size (its CSS: at most 420 px wide, one row of controls and a line of error). */
const PLAYER_BOUNDS = { maxWidth: 440, maxHeight: 160 };

declare global {
  // The content scripts' isolated world outlives each injection: a second injection finds the first's player.
  var __trysashaPlayer: { ctx: ContentScriptContext } | undefined;
}

/**
 * Installs once per page. The newest injection's context is used for mounting (WXT ends an older one
 * when the script is injected again, and its UI with it: the next view mounts it again).
 */
export function installFloatingPlayer(ctx: ContentScriptContext): void {
  if (globalThis.__trysashaPlayer) {
    globalThis.__trysashaPlayer.ctx = ctx;
    return;
  }
  const holder = { ctx };
  globalThis.__trysashaPlayer = holder;
  const context = () => holder.ctx;
  let ui: Promise<ShadowRootContentScriptUi<HTMLElement>> | null = null;
  /** The reading whose player the user closed: not shown again until another reading. */
  let closedFor = '';
  /** The reading the player shows. */
  let shownFor = '';
  let place: FloatingPlace | null = null;
  const locale = uiLocale();

  const mount = () => {
    if (ui) return ui;
    let container: HTMLElement | null = null;
    const made: Promise<ShadowRootContentScriptUi<HTMLElement>> = guardedUi(context(), {
      name: 'trysasha-player',
      css,
      bounds: PLAYER_BOUNDS,
      mount: (c) => (container = c),
      box: () => container?.querySelector('[data-testid="floating-player"]') ?? null,
      // The page moved, marked or scaled it: gone for this reading (the popup still drives it).
      onTampered: () => {
        closedFor = shownFor;
        void hide();
      },
      onRemove: (c) => {
        if (c) render(null, c);
        // Removed by an ended context too: the next view mounts it again.
        if (ui === made) ui = null;
      },
    }).then(({ ui: created }) => {
      created.mount();
      return created;
    });
    ui = made;
    return made;
  };

  const hide = async () => {
    const made = ui;
    ui = null;
    if (made) (await made).remove();
  };

  const show = async (view: FloatingView) => {
    const made = await mount();
    const container = made.mounted;
    if (!container) return;
    shownFor = view.readingId;
    render(
      <FloatingPlayer
        view={view}
        place={place}
        locale={locale}
        onCommand={(command) => void sendFromPage('floatingCommand', { command }).catch(ignore('mini-player command'))}
        onRate={(rate) => void sendFromPage('floatingRate', { rate }).catch(ignore('mini-player speed'))}
        onMoved={(at) => {
          place = at;
          void sendFromPage('floatingMoved', { place: at }).catch(ignore('mini-player place'));
        }}
        onClose={() => {
          closedFor = view.readingId;
          void hide();
        }}
      />,
      container,
    );
  };

  onPageRequest('floating', async ({ data }) => {
    if (data.place) place = data.place;
    if (!data.view || data.view.readingId === closedFor) return hide();
    closedFor = '';
    return show(data.view);
  });
}
