import { defineContentScript } from 'wxt/utils/define-content-script';
import { installFloatingPlayer } from '@/utils/content/floating-player';

// The floating mini-player, injected by the background into the tab being read once the reading is
// under way (a script apart from the extract script, so the first audio never waits for its UI code).
// Resident after its first injection; a second injection finds the first's player and adds nothing.
export default defineContentScript({
  matches: ['<all_urls>'],
  registration: 'runtime',
  // A new copy is told to the old ones by a DOM event; WXT's extra `window.postMessage` (its future
  // default is none) would run the page's own message listeners, and took ~3.5 ms of the injection.
  noScriptStartedPostMessage: true,
  main(ctx) {
    installFloatingPlayer(ctx);
  },
});
